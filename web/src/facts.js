// The facts table: current by default, history on a switch, filters, paging, and the
// retract / reopen / revise actions through the same API calls as every other client.
import { api } from "./api.js";
import { showSlotHistory } from "./diagram.js";
import { reviseForm } from "./revise.js";
import { settingsPanel } from "./settings.js";

const COLUMNS = ["subject", "predicate", "object", "tier", "place", "workspace"];
const PAGE_SIZE = 100;

function when(value, zone) {
  if (!value) return "…";
  return new Date(value).toLocaleString(undefined, { timeZone: zone || undefined });
}

function choice(id, label, values) {
  const options = values.map((value) => `<option>${value}</option>`).join("");
  return `<label>${label} <select id="${id}"><option value="">any</option>${options}</select></label>`;
}

export async function renderFacts(root, settings, signOut) {
  const zone = settings.timezone || undefined;
  root.innerHTML =
    '<p><label><input id="history" type="checkbox"> history</label> ' +
    '<input id="filter" placeholder="filter text" size="24"> ' +
    '<input id="subject" placeholder="subject" size="14"> ' +
    '<input id="predicate" placeholder="predicate" size="14"> ' +
    choice("tier", "tier", ["asserted", "observed", "inferred"]) +
    " " +
    choice("place", "place", ["everywhere", "repo", "project", "worktree"]) +
    ' <button id="signout" type="button">Sign out</button> ' +
    `<span class="muted">times in ${zone || "this browser's zone"}</span></p>` +
    '<div id="settings"></div><div id="revise"></div><div id="history-diagram"></div>' +
    '<p id="error" class="error" role="alert"></p>' +
    '<table id="facts"><thead></thead><tbody></tbody></table>' +
    '<p><button id="prev" type="button">‹ prev</button> <span id="range" class="muted"></span> ' +
    '<button id="next" type="button">next ›</button></p>';
  const $ = (selector) => root.querySelector(selector);
  const table = $("#facts");
  table.tHead.innerHTML =
    "<tr>" +
    [...COLUMNS, "valid", "recorded", "ended", ""].map((name) => `<th>${name}</th>`).join("") +
    "</tr>";
  $("#signout").addEventListener("click", signOut);
  settingsPanel($("#settings"), settings, showError);

  let facts = [];
  let offset = 0;

  function showError(error) {
    $("#error").textContent = error ? error.message : "";
  }

  async function act(path, body) {
    try {
      await api("POST", path, body || {});
      $("#revise").innerHTML = "";
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
    if (!fact.expired_at && !fact.invalid_at) {
      buttons.push(["revise", () => reviseForm($("#revise"), fact, (body) => act(`/v1/facts/${id}/revise`, body))]);
      buttons.push(["retract", () => act(`/v1/facts/${id}/retract`)]);
    }
    return buttons;
  }

  function draw() {
    const needle = $("#filter").value.toLowerCase();
    const tier = $("#tier").value;
    const place = $("#place").value;
    const shown = facts.filter(
      (fact) =>
        (!tier || fact.tier === tier) &&
        (!place || fact.place === place) &&
        COLUMNS.some((name) => String(fact[name] ?? "").toLowerCase().includes(needle)),
    );
    offset = Math.max(0, Math.min(offset, Math.floor((shown.length - 1) / PAGE_SIZE) * PAGE_SIZE));
    const body = table.tBodies[0];
    body.innerHTML = "";
    for (const fact of shown.slice(offset, offset + PAGE_SIZE)) {
      const row = body.insertRow();
      row.dataset.factId = fact.fact_id;
      for (const name of COLUMNS) row.insertCell().textContent = fact[name] ?? "";
      row.insertCell().textContent = `${when(fact.valid_at, zone)} → ${when(fact.invalid_at, zone)}`;
      row.insertCell().textContent = `${when(fact.created_at, zone)} → ${when(fact.expired_at, zone)}`;
      row.insertCell().textContent = fact.retired_reason || "";
      const cell = row.insertCell();
      for (const [label, handler] of actionsOf(fact)) {
        const button = document.createElement("button");
        button.textContent = label;
        button.addEventListener("click", handler);
        cell.append(button, " ");
      }
    }
    if (!shown.length) {
      body.insertRow().insertCell().textContent = facts.length
        ? "No fact matches the filters."
        : "No facts yet: agents add them through the API, MCP or `twoclocks remember`.";
    }
    $("#range").textContent = shown.length
      ? `${offset + 1}–${Math.min(offset + PAGE_SIZE, shown.length)} of ${shown.length}`
      : "";
    $("#prev").disabled = offset === 0;
    $("#next").disabled = offset + PAGE_SIZE >= shown.length;
  }

  async function load() {
    showError(null);
    const query = new URLSearchParams({ include_history: $("#history").checked });
    for (const name of ["subject", "predicate"]) {
      const value = $(`#${name}`).value.trim();
      if (value) query.set(name, value);
    }
    facts = (await api("GET", `/v1/facts?${query}`)).facts;
    draw();
  }

  const reload = () => load().catch(showError);
  $("#history").addEventListener("change", reload);
  $("#subject").addEventListener("change", reload);
  $("#predicate").addEventListener("change", reload);
  for (const id of ["#filter", "#tier", "#place"]) {
    $(id).addEventListener("input", () => {
      offset = 0;
      draw();
    });
  }
  $("#prev").addEventListener("click", () => {
    offset -= PAGE_SIZE;
    draw();
  });
  $("#next").addEventListener("click", () => {
    offset += PAGE_SIZE;
    draw();
  });
  await load();
}
