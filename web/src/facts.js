// The facts table: current by default, history on a switch, a text filter, retract/reopen.
import { api } from "./api.js";

const COLUMNS = ["subject", "predicate", "object", "tier", "place", "workspace"];

function when(value, zone) {
  if (!value) return "…";
  return new Date(value).toLocaleString(undefined, { timeZone: zone || undefined });
}

export async function renderFacts(root, settings, signOut) {
  const zone = settings.timezone || undefined;
  root.innerHTML =
    '<p><label><input id="history" type="checkbox"> history</label> ' +
    '<input id="filter" placeholder="filter text" size="30"> ' +
    '<button id="signout" type="button">Sign out</button> ' +
    `<span class="muted">times in ${zone || "this browser's zone"}</span></p>` +
    '<p id="error" class="error"></p><table id="facts"><thead></thead><tbody></tbody></table>';
  const table = root.querySelector("#facts");
  const errorLine = root.querySelector("#error");
  table.tHead.innerHTML =
    "<tr>" +
    [...COLUMNS, "valid", "recorded", "ended", ""].map((name) => `<th>${name}</th>`).join("") +
    "</tr>";
  root.querySelector("#signout").addEventListener("click", signOut);

  async function act(path) {
    try {
      await api("POST", path, {});
      await load();
    } catch (error) {
      errorLine.textContent = error.message;
    }
  }

  async function load() {
    errorLine.textContent = "";
    const history = root.querySelector("#history").checked;
    const needle = root.querySelector("#filter").value.toLowerCase();
    const { facts } = await api("GET", `/v1/facts?include_history=${history}`);
    const body = table.tBodies[0];
    body.innerHTML = "";
    const shown = facts.filter((fact) =>
      COLUMNS.some((name) => String(fact[name] ?? "").toLowerCase().includes(needle)),
    );
    for (const fact of shown) {
      const row = body.insertRow();
      row.dataset.factId = fact.fact_id;
      for (const name of COLUMNS) row.insertCell().textContent = fact[name] ?? "";
      row.insertCell().textContent = `${when(fact.valid_at, zone)} → ${when(fact.invalid_at, zone)}`;
      row.insertCell().textContent = `${when(fact.created_at, zone)} → ${when(fact.expired_at, zone)}`;
      row.insertCell().textContent = fact.retired_reason || "";
      const cell = row.insertCell();
      // Retracting closes the record clock; only a retracted version can be reopened.
      const action = fact.retired_reason === "retracted" ? "reopen" : fact.expired_at ? "" : "retract";
      if (action) {
        const button = document.createElement("button");
        button.textContent = action;
        button.addEventListener("click", () =>
          act(`/v1/facts/${encodeURIComponent(fact.fact_id)}/${action}`),
        );
        cell.appendChild(button);
      }
    }
    if (!shown.length) {
      body.insertRow().insertCell().textContent = facts.length
        ? "No fact matches the filter."
        : "No facts yet: agents add them through the API, MCP or `twoclocks remember`.";
    }
  }

  root.querySelector("#history").addEventListener("change", () => load().catch(showError));
  root.querySelector("#filter").addEventListener("input", () => load().catch(showError));
  function showError(error) {
    errorLine.textContent = error.message;
  }
  await load();
}
