// Slot-drift merges (GET /v1/aliases): which name was written under which slot, and who
// decided it (the grey zone's model, the matcher, or a merge by hand). "split" undoes one
// (POST /v1/aliases/split): both slots current again, both clocks kept. The form below
// joins two names drift kept apart (POST /v1/aliases/merge): one slot, one current value.
// "Close names kept apart" (GET /v1/aliases/close) lists the pairs that may be one, each
// with a "merge" button that joins it the same way.
import { api } from "./api.js";

export function mergesPanel(host, showError, onChange) {
  const details = document.createElement("details");
  details.id = "merges";
  details.innerHTML =
    '<summary>Merged slot names</summary><ul id="merge-list"></ul>' +
    '<p>Close names kept apart (both values current; one slot?)</p><ul id="close-list"></ul>' +
    '<form id="merge-form">Two names of one slot? ' +
    '<input name="subject" placeholder="subject" size="12" aria-label="merge: subject" required> ' +
    '<input name="alias" placeholder="name" size="14" aria-label="merge: the name to fold in" required> ' +
    'into <input name="canonical" placeholder="slot" size="14" aria-label="merge: the slot it joins" required> ' +
    '<button type="submit">merge</button></form>';
  const list = details.querySelector("#merge-list");
  const close = details.querySelector("#close-list");
  const form = details.querySelector("form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form));
    try {
      await api("POST", "/v1/aliases/merge", fields);
      showError(null);
      form.reset();
      await draw();
      onChange();
    } catch (error) {
      showError(error);
    }
  });

  async function drawClose() {
    const { close: pairs } = await api("GET", "/v1/aliases/close");
    close.replaceChildren();
    if (!pairs.length) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = "None: every pair of names is plainly apart or merged.";
      close.appendChild(none);
    }
    for (const pair of pairs) {
      const item = document.createElement("li");
      const values = (vs) => vs.join(", ");
      item.textContent =
        `${pair.subject} · ${pair.slot} (${values(pair.values)}) ~ ${pair.other} ` +
        `(${values(pair.other_values)}), ${pair.why} `;
      const join = document.createElement("button");
      join.type = "button";
      join.textContent = "merge";
      join.title = `write ${pair.other} under ${pair.slot}: one slot, the later value current`;
      join.setAttribute("aria-label", `merge ${pair.subject} ${pair.other} into ${pair.slot}`);
      join.addEventListener("click", async () => {
        try {
          const body = { subject: pair.subject, alias: pair.other, canonical: pair.slot };
          await api("POST", "/v1/aliases/merge", body);
          showError(null);
          await draw();
          onChange();
        } catch (error) {
          showError(error);
        }
      });
      item.appendChild(join);
      close.appendChild(item);
    }
  }

  async function draw() {
    const { aliases } = await api("GET", "/v1/aliases");
    list.replaceChildren();
    if (!aliases.length) {
      const none = document.createElement("li");
      none.className = "muted";
      none.textContent = "No merges: every name is its own slot.";
      list.appendChild(none);
    }
    for (const merge of aliases) {
      const item = document.createElement("li");
      // textContent, never HTML: subjects and names are whatever a writer sent.
      const who = merge.decided_by ? ` (decided by ${merge.decided_by})` : "";
      item.textContent = `${merge.subject} · ${merge.alias} → ${merge.canonical}${who} `;
      const split = document.createElement("button");
      split.type = "button";
      split.textContent = "split";
      split.title = `write ${merge.alias} as its own slot again`;
      split.setAttribute("aria-label", `split ${merge.subject} ${merge.alias} from ${merge.canonical}`);
      split.addEventListener("click", async () => {
        try {
          await api("POST", "/v1/aliases/split", { alias: merge.alias, subject: merge.subject });
          showError(null);
          await draw();
          onChange();
        } catch (error) {
          showError(error);
        }
      });
      item.appendChild(split);
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
