// Slot-drift merges (GET /v1/aliases): which name was written under which slot, and who
// decided it (the grey zone's model, the matcher, or a merge by hand). "split" undoes one
// (POST /v1/aliases/split): both slots current again, both clocks kept. The form below
// joins two names drift kept apart (POST /v1/aliases/merge): one slot, one current value.
// "Close names, each its own slot" (GET /v1/aliases/close) lists the pairs that may be one, each
// with a "merge" button that joins it the same way and a "keep apart" button (POST
// /v1/aliases/apart) that says they are two: drift never merges them, the list drops them.
// "Kept apart" lists those pairs (a split keeps its pair apart too); a merge undoes one.
import { api } from "./api.js";

export function mergesPanel(host, showError, onChange) {
  const details = document.createElement("details");
  details.id = "merges";
  details.innerHTML =
    '<summary>Merged slot names</summary><ul id="merge-list"></ul>' +
    '<p>Close names, each its own slot (both values current; one slot?)</p><ul id="close-list"></ul>' +
    '<p>Kept apart (never merged, never listed as close)</p><ul id="apart-list"></ul>' +
    '<form id="merge-form">Two names of one slot? ' +
    '<input name="subject" placeholder="subject" size="12" aria-label="merge: subject" required> ' +
    '<input name="alias" placeholder="name" size="14" aria-label="merge: the name to fold in" required> ' +
    'into <input name="canonical" placeholder="slot" size="14" aria-label="merge: the slot it joins" required> ' +
    '<button type="submit">merge</button></form>';
  const list = details.querySelector("#merge-list");
  const close = details.querySelector("#close-list");
  const apart = details.querySelector("#apart-list");
  const form = details.querySelector("form");
  // Every change here is one POST, then both lists and the facts table read again.
  async function act(path, body, done = () => {}) {
    try {
      await api("POST", path, body);
      showError(null);
      done();
      await draw();
      onChange();
    } catch (error) {
      showError(error);
    }
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act("/v1/aliases/merge", Object.fromEntries(new FormData(form)), () => form.reset());
  });

  // A list starts empty, or says what its emptiness means.
  function empty(host, rows, text) {
    host.replaceChildren();
    if (rows.length) return;
    const none = document.createElement("li");
    none.className = "muted";
    none.textContent = text;
    host.appendChild(none);
  }

  function button(text, title, label, onClick) {
    const made = document.createElement("button");
    made.type = "button";
    made.textContent = text;
    made.title = title;
    made.setAttribute("aria-label", label);
    made.addEventListener("click", onClick);
    return made;
  }

  async function drawClose() {
    const { close: pairs } = await api("GET", "/v1/aliases/close?all_workspaces=true");
    empty(close, pairs, "None: every pair of names is plainly apart or merged.");
    for (const pair of pairs) {
      const item = document.createElement("li");
      const values = (vs) => vs.join(", ");
      item.textContent =
        `${pair.subject} · ${pair.slot} (${values(pair.values)}) ~ ${pair.other} ` +
        `(${values(pair.other_values)}), ${pair.why} `;
      const body = { subject: pair.subject, alias: pair.other, canonical: pair.slot };
      item.append(
        button(
          "merge",
          `write ${pair.other} under ${pair.slot}: one slot, the later value current`,
          `merge ${pair.subject} ${pair.other} into ${pair.slot}`,
          () => act("/v1/aliases/merge", body),
        ),
        " ",
        button(
          "keep apart",
          `${pair.slot} and ${pair.other} are two slots: never merge them, stop listing them`,
          `keep apart ${pair.subject} ${pair.slot} and ${pair.other}`,
          () =>
            act("/v1/aliases/apart", {
              subject: pair.subject,
              slot: pair.slot,
              other: pair.other,
            }),
        ),
      );
      close.appendChild(item);
    }
  }

  async function draw() {
    const { aliases, apart: pairs } = await api("GET", "/v1/aliases");
    empty(apart, pairs, "None: no pair of names was split or kept apart.");
    for (const pair of pairs) {
      const item = document.createElement("li");
      item.textContent = `${pair.subject} · ${pair.first} | ${pair.second} (${pair.decided_by})`;
      apart.appendChild(item);
    }
    empty(list, aliases, "No merges: every name is its own slot.");
    for (const merge of aliases) {
      const item = document.createElement("li");
      // textContent, never HTML: subjects and names are whatever a writer sent.
      const who = merge.decided_by ? ` (decided by ${merge.decided_by})` : "";
      item.textContent = `${merge.subject} · ${merge.alias} → ${merge.canonical}${who} `;
      const body = { alias: merge.alias, subject: merge.subject };
      item.appendChild(
        button(
          "split",
          `write ${merge.alias} as its own slot again`,
          `split ${merge.subject} ${merge.alias} from ${merge.canonical}`,
          () => act("/v1/aliases/split", body),
        ),
      );
      list.appendChild(item);
    }
    await drawClose();
  }

  // Read when opened: most visits never look at merges.
  details.addEventListener("toggle", () => {
    if (details.open) draw().catch(showError);
  });
  host.appendChild(details);
}
