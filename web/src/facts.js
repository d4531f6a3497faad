// The facts table: current by default, history on a switch, filters, paging, and the
// retract / reopen / revise actions through the same API calls as every other client.
import { api } from "./api.js";
import { mendedEnds, showSlotHistory } from "./diagram.js";
import { reviseForm } from "./revise.js";
import { mergesPanel } from "./merges.js";
import { settingsPanel } from "./settings.js";
import { explain } from "./errors.js";
import { onKeys } from "./keys.js";

const COLUMNS = ["subject", "predicate", "object", "tier", "place", "writer", "fact_class", "workspace"];
const HEADINGS = { fact_class: "class" };
const PAGE_SIZE = 100;
// Every filter is a parameter of GET /v1/facts: the server filters and pages, so the first
// page of 100k versions costs one small read whatever is set; its total is asked after.
const FILTERS = ["text", "subject", "predicate", "tier", "place", "writer", "fact_class"];
const TYPING_PAUSE_MS = 250;

function when(value, zone) {
  if (!value) return "…";
  return new Date(value).toLocaleString(undefined, { timeZone: zone || undefined });
}

// An end still to come is not history: the value holds until then (fact_text.history_note).
function endedByNow(fact) {
  return Boolean(fact.invalid_at) && new Date(fact.invalid_at) <= new Date();
}

// Why a version is history, in the CLI's and the MCP lines' words (domain/fact_text.py):
// the version memory holds says how it closed ("ended"); a belief a later record of the
// same fact replaced (its end was told, or the same value vouched for again) says until
// when it was believed, not "ended": the row that ended is the one with a valid end.
export function historyNote(fact, zone, mended = false) {
  if (mended && fact.retired_reason === "corrected") return "end corrected";
  if (fact.expired_at) {
    const replaced = !fact.retired_reason || ["ended", "rewritten"].includes(fact.retired_reason);
    if (replaced) return `believed until ${when(fact.expired_at, zone)}`;
    // Told with no start after the change a later word dates: not a mistake, told late.
    return fact.retired_reason === "outdated" ? "outdated when told" : fact.retired_reason;
  }
  // A start still to come: listed beside what holds now, never read as holding yet.
  if (new Date(fact.valid_at) > new Date()) return `starts later: from ${when(fact.valid_at, zone)}`;
  return endedByNow(fact) && fact.retired_reason ? fact.retired_reason : "";
}

function choice(id, label, values) {
  const options = values.map((value) => `<option>${value}</option>`).join("");
  return `<label>${label} <select id="${id}"><option value="">any</option>${options}</select></label>`;
}

export async function renderFacts(root, settings, signOut) {
  const zone = settings.timezone || undefined;
  root.innerHTML =
    '<form id="filters" role="search"><label><input id="history" type="checkbox"> history</label> ' +
    '<input id="text" placeholder="filter text  ( / )" size="22" aria-label="filter by text in subject, slot or value"> ' +
    '<input id="subject" placeholder="subject" size="12" aria-label="subject"> ' +
    '<input id="predicate" placeholder="predicate" size="12" aria-label="predicate"> ' +
    choice("tier", "tier", ["asserted", "observed", "inferred"]) +
    " " +
    choice("place", "place", ["everywhere", "repo", "project", "worktree"]) +
    " " +
    choice("writer", "writer", ["person", "agent", "tool_rule", "extractor"]) +
    " " +
    choice("fact_class", "class", ["user", "rule", "project", "environment", "decision", "task"]) +
    ' <button id="clear" type="reset">Clear filters</button> ' +
    '<button id="signout" type="button">Sign out</button></form>' +
    `<p class="muted">times in ${zone || "this browser's zone"} · keys: / filter, n next page, p previous page, Esc close</p>` +
    '<div id="settings"></div><div id="merges-panel"></div><div id="revise"></div><div id="history-diagram"></div>' +
    '<p id="error" class="error" role="alert"></p><p id="notice" aria-live="polite"></p>' +
    '<table id="facts"><thead></thead><tbody></tbody></table>' +
    '<p><button id="prev" type="button">‹ prev</button> <span id="range" class="muted" aria-live="polite"></span> ' +
    '<button id="next" type="button">next ›</button></p>';
  const $ = (selector) => root.querySelector(selector);
  const table = $("#facts");
  table.tHead.innerHTML =
    "<tr>" +
    [...COLUMNS.map((name) => HEADINGS[name] || name), "valid", "recorded", "history", ""]
      .map((name) => `<th scope="col">${name}</th>`)
      .join("") +
    "</tr>";
  $("#signout").addEventListener("click", signOut);
  settingsPanel($("#settings"), settings, showError);

  let offset = 0;
  let total = null;

  function showError(error) {
    $("#error").textContent = explain(error);
  }

  async function act(path, body) {
    try {
      const reply = await api("POST", path, body || {});
      $("#revise").innerHTML = "";
      $("#notice").textContent = leftEndedNote(reply);
      await load();
    } catch (error) {
      showError(error);
    }
  }

  function actionsOf(fact) {
    const id = encodeURIComponent(fact.fact_id);
    const buttons = [
      ["diagram", () => showSlotHistory($("#history-diagram"), fact, zone).catch(showError)],
    ];
    // Retracting closes the record clock; only a retracted version can be reopened.
    if (fact.retired_reason === "retracted") buttons.push(["reopen", () => act(`/v1/facts/${id}/reopen`)]);
    // Held back by the refusal watch: only the person restores it (current again).
    if (fact.retired_reason === "held_back") buttons.push(["restore", () => act(`/v1/held/${id}/restore`)]);
    const revise = (reasons) => reviseForm($("#revise"), fact, (body) => act(`/v1/facts/${id}/revise`, body), reasons);
    if (!fact.expired_at && !endedByNow(fact)) {
      buttons.push(["revise", () => revise()]);
      buttons.push(["retract", () => act(`/v1/facts/${id}/retract`)]);
    } else if (!fact.expired_at && fact.retired_reason !== "corrected") {
      // Ended, and believed: it may still turn out never to have been true.
      buttons.push(["correct", () => revise(["corrected"])]);
    }
    return buttons;
  }

  const filtered = () => FILTERS.some((name) => $(`#${name}`).value.trim());

  function emptyRow() {
    const cell = table.tBodies[0].insertRow().insertCell();
    cell.colSpan = COLUMNS.length + 4;
    cell.className = "empty";
    if (filtered()) {
      cell.textContent = "No fact matches these filters. ";
      const clear = document.createElement("button");
      clear.type = "button";
      clear.textContent = "Clear filters";
      clear.addEventListener("click", () => $("#filters").reset());
      cell.append(clear);
    } else if (!$("#history").checked) {
      cell.textContent =
        "No current facts. Agents add them through MCP or the API, you with `twoclocks remember`; " +
        "tick history to see retracted and ended versions.";
    } else {
      cell.textContent = "No facts yet: agents add them through MCP or the API, you with `twoclocks remember`.";
    }
  }

  function draw(facts) {
    const body = table.tBodies[0];
    body.innerHTML = "";
    const mended = mendedEnds(facts);
    for (const fact of facts) {
      const row = body.insertRow();
      row.dataset.factId = fact.fact_id;
      for (const name of COLUMNS) {
        const cell = row.insertCell();
        cell.className = name;
        cell.textContent = fact[name] ?? "";
      }
      // A fact filed under another slot name (slot drift, a merge) says the name it was
      // written under: "timeout_seconds (written as timeout_ms)" for "45000".
      if (fact.written_as && fact.written_as !== fact.predicate) {
        row.cells[COLUMNS.indexOf("predicate")].textContent += ` (written as ${fact.written_as})`;
      }
      // A start nobody stated is when the store was told, not when the value became true.
      const begun = fact.start_stated === false ? "known from " : "";
      row.insertCell().textContent = `${begun}${when(fact.valid_at, zone)} → ${when(fact.invalid_at, zone)}`;
      row.insertCell().textContent = `${when(fact.created_at, zone)} → ${when(fact.expired_at, zone)}`;
      row.insertCell().textContent = historyNote(fact, zone, mended.has(fact.version_id));
      const cell = row.insertCell();
      for (const [label, handler] of actionsOf(fact)) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        button.setAttribute("aria-label", `${label} ${fact.subject} ${fact.predicate}`);
        button.addEventListener("click", handler);
        cell.append(button, " ");
      }
    }
    if (!facts.length) emptyRow();
    shownCount = facts.length;
    showRange();
  }

  // The total arrives after the page (its count visits every match): "of …" until then.
  function showRange() {
    const last = offset + shownCount;
    $("#range").textContent = shownCount ? `${offset + 1}–${last} of ${total ?? "…"}` : "";
    $("#prev").disabled = offset === 0;
    $("#next").disabled = total === null ? shownCount < PAGE_SIZE : last >= total;
  }

  function readQuery() {
    // Without history the table is "now": what holds, and what is believed to start later.
    const history = $("#history").checked;
    // The person's own screen: every workspace, each row's in its workspace column.
    const query = new URLSearchParams({ include_history: history, include_later: !history, all_workspaces: true });
    for (const name of FILTERS) {
      const value = $(`#${name}`).value.trim();
      if (value) query.set(name, value);
    }
    return query;
  }

  let shownCount = 0;
  let reading = 0;
  async function load() {
    showError(null);
    const asked = ++reading;
    const query = readQuery();
    const page = new URLSearchParams({ ...Object.fromEntries(query), limit: PAGE_SIZE, offset, count: false });
    const answer = await api("GET", `/v1/facts?${page}`);
    if (asked !== reading) return;
    if (!answer.facts.length && offset > 0) {
      // The last page emptied (a retract under history off): start again from the first.
      offset = 0;
      return load();
    }
    total = null;
    draw(answer.facts);
    const counted = new URLSearchParams({ ...Object.fromEntries(query), limit: 1 });
    const { total: all } = await api("GET", `/v1/facts?${counted}`);
    if (asked !== reading) return;
    total = all;
    showRange();
  }

  const reload = () => load().catch(showError);
  mergesPanel($("#merges-panel"), showError, reload);
  const fromStart = () => {
    offset = 0;
    reload();
  };
  let typing;
  $("#filters").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(typing); // Enter asks now; the pause's own ask would only repeat it
    fromStart();
  });
  // After a reset the fields are empty only once the event is handled.
  $("#filters").addEventListener("reset", () => setTimeout(fromStart));
  for (const id of ["#history", ...FILTERS.map((name) => `#${name}`)]) {
    const field = $(id);
    if (field.tagName === "INPUT" && field.type === "text") {
      // Typing waits for a pause before asking the server again.
      field.addEventListener("input", () => {
        clearTimeout(typing);
        typing = setTimeout(fromStart, TYPING_PAUSE_MS);
      });
    } else field.addEventListener("change", fromStart);
  }
  const turn = (step) => {
    const next = Math.max(0, offset + step);
    if (next === offset || (step > 0 && $("#next").disabled)) return;
    offset = next;
    reload();
  };
  $("#prev").addEventListener("click", () => turn(-PAGE_SIZE));
  $("#next").addEventListener("click", () => turn(PAGE_SIZE));
  onKeys(root, {
    "/": () => $("#text").focus(),
    n: () => turn(PAGE_SIZE),
    p: () => turn(-PAGE_SIZE),
    Escape: () => {
      $("#revise").innerHTML = "";
      $("#history-diagram").innerHTML = "";
    },
  });
  await load();
}

// A retract gives nothing back: when it leaves the slot with no value, the server names
// the values the fact had replaced, which stay ended (Memcached had replaced Redis).
export function leftEndedNote(reply) {
  const ended = (reply && reply.left_ended) || [];
  if (!ended.length) return "";
  const values = ended.map((v) => v.object).join("; ");
  return (
    `Its slot holds no value now; what it had replaced stays ended: ${values}. ` +
    "If the fact was never true, reopen it (tick history), then revise it as corrected."
  );
}
