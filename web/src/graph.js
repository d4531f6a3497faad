// The graph explorer: entities as nodes, facts as edges around a chosen entity, on two
// clocks. Every slider move asks the API again; nothing is filtered in the page.
import cytoscape from "cytoscape";
import { api } from "./api.js";
import { showSlotHistory } from "./diagram.js";
import { explain } from "./errors.js";
import { onKeys } from "./keys.js";

const DAY = 86_400_000;
const SPAN_DAYS = 730;
const MAX_NODES = 300;
const PER_ENTITY = 300;

function instant(daysBack) {
  return daysBack < 0 ? new Date(Date.now() + daysBack * DAY) : null;
}

function slider(id, label) {
  return (
    `<label>${label} <input id="${id}" type="range" min="-${SPAN_DAYS}" max="0" step="1" value="0" ` +
    `aria-describedby="${id}-label"></label> <output id="${id}-label">now</output>`
  );
}

export async function renderGraph(root, settings) {
  const zone = settings.timezone || undefined;
  root.innerHTML =
    '<form id="graph-search"><input id="entity" list="entity-names" placeholder="entity name, e.g. a repo or service" size="32" autocomplete="off">' +
    '<datalist id="entity-names"></datalist> <button type="submit">Show</button> ' +
    '<span class="muted">click a node to expand it, an edge (or a line below) for its history</span></form>' +
    `<p>${slider("as-of", "world clock: true as of")} &nbsp; ${slider("as-believed", "belief clock: as believed on")}</p>` +
    '<p id="graph-error" class="error" role="alert"></p>' +
    '<div id="graph" style="height:460px;border:1px solid #ddd"></div>' +
    '<p id="graph-status" class="muted">Type an entity name (a subject or value of a fact) and press Show.</p>' +
    '<ul id="edges"></ul><div id="graph-diagram"></div>';
  const $ = (selector) => root.querySelector(selector);
  const cy = cytoscape({
    container: $("#graph"),
    style: [
      { selector: "node", style: { label: "data(id)", "font-size": 10, "text-wrap": "wrap", "text-max-width": 150, "background-color": "#5c8bd6", width: 14, height: 14 } },
      { selector: "node.centre", style: { "background-color": "#4caf50", width: 22, height: 22 } },
      {
        selector: "edge",
        style: { label: "data(label)", "font-size": 8, "curve-style": "bezier", "target-arrow-shape": "triangle", width: 1.5, "line-color": "#aaa", "target-arrow-color": "#aaa" },
      },
    ],
    wheelSensitivity: 0.3,
    maxZoom: 1.6,
  });
  let centre = "";
  let expanded = [];
  let factsById = new Map();

  const clocks = () => ({ as_of: instant(Number($("#as-of").value)), as_believed: instant(Number($("#as-believed").value)) });

  function showError(error) {
    $("#graph-error").textContent = explain(error);
  }

  function labelSliders() {
    for (const id of ["as-of", "as-believed"]) {
      const when = instant(Number($(`#${id}`).value));
      $(`#${id}-label`).textContent = when ? when.toLocaleDateString(undefined, { timeZone: zone }) : "now";
    }
  }

  async function around(entity) {
    // The person's screen: every workspace, each fact's own in its workspace column.
    const query = new URLSearchParams({ entity, limit: PER_ENTITY, all_workspaces: true });
    for (const [name, when] of Object.entries(clocks())) if (when) query.set(name, when.toISOString());
    return (await api("GET", `/v1/graph/neighbourhood?${query}`)).facts;
  }

  function openHistory(fact) {
    showSlotHistory($("#graph-diagram"), fact, zone).catch(showError);
  }

  function draw(facts) {
    factsById = new Map(facts.map((fact) => [fact.version_id, fact]));
    const nodes = new Set([centre, ...expanded]);
    const shown = [];
    for (const fact of factsById.values()) {
      const fresh = [fact.subject, fact.object].filter((name) => !nodes.has(name)).length;
      if (nodes.size + fresh > MAX_NODES) continue;
      nodes.add(fact.subject);
      nodes.add(fact.object);
      shown.push(fact);
    }
    cy.batch(() => {
      cy.elements().remove();
      cy.add([...nodes].map((id) => ({ data: { id }, classes: id === centre ? "centre" : "" })));
      cy.add(shown.map((f) => ({ data: { id: `e:${f.version_id}`, source: f.subject, target: f.object, label: f.predicate, version: f.version_id } })));
    });
    // A few nodes spread out so their labels do not overlap; many stay close enough that
    // the fitted graph keeps its labels readable.
    const spacing = Math.max(20, Math.min(90, 1400 / nodes.size));
    cy.layout({ name: "concentric", animate: false, concentric: (n) => (n.id() === centre ? 3 : expanded.includes(n.id()) ? 2 : 1), levelWidth: () => 1, minNodeSpacing: spacing }).run();
    const list = $("#edges");
    list.innerHTML = "";
    for (const fact of shown) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "edge";
      button.dataset.versionId = fact.version_id;
      button.textContent = `${fact.subject} · ${fact.predicate} → ${fact.object}`;
      button.addEventListener("click", () => openHistory(fact));
      item.append(button);
      list.append(item);
    }
    const capped = shown.length < factsById.size ? ` (${factsById.size - shown.length} more not drawn: ${MAX_NODES} nodes at most)` : "";
    $("#graph-status").textContent = shown.length
      ? `${shown.length} facts, ${nodes.size} entities around ${centre}${capped}`
      : `No facts name “${centre}” on these clocks: check the spelling, or move the sliders.`;
  }

  async function redraw() {
    showError(null);
    labelSliders();
    if (!centre) return;
    try {
      const pages = await Promise.all(expanded.map(around));
      draw(pages.flat());
    } catch (error) {
      showError(error);
    }
  }

  cy.on("tap", "node", (event) => {
    const id = event.target.id();
    if (!expanded.includes(id)) {
      expanded.push(id);
      redraw();
    }
  });
  cy.on("tap", "edge", (event) => {
    const fact = factsById.get(event.target.data("version"));
    if (fact) openHistory(fact);
  });
  $("#graph-search").addEventListener("submit", (event) => {
    event.preventDefault();
    centre = $("#entity").value.trim();
    expanded = centre ? [centre] : [];
    redraw();
  });
  let typing;
  $("#entity").addEventListener("input", () => {
    clearTimeout(typing);
    const text = $("#entity").value.trim();
    if (!text) return;
    typing = setTimeout(async () => {
      try {
        const { entities } = await api("GET", `/v1/graph/entities?${new URLSearchParams({ text })}`);
        $("#entity-names").innerHTML = entities.map((name) => `<option value="${name.replace(/"/g, "&quot;")}">`).join("");
      } catch (error) {
        showError(error);
      }
    }, 200);
  });
  for (const id of ["#as-of", "#as-believed"]) {
    $(id).addEventListener("input", labelSliders);
    $(id).addEventListener("change", redraw);
  }
  onKeys(root, {
    "/": () => $("#entity").focus(),
    Escape: () => ($("#graph-diagram").innerHTML = ""),
  });
  labelSliders();
  $("#entity").focus();
}
