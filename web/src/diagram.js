// A slot's history on both clocks: valid time across, record time up. Each version is the
// rectangle [valid_at, invalid_at) x [created_at, expired_at); open ends run to "now".
import { api } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = {
  current: "#4caf50", ended: "#5c8bd6", corrected: "#f0a030", outdated: "#2a9d8f", retracted: "#d9534f", held_back: "#8e6cc0", rewritten: "#9e9e9e",
  "end corrected": "#9e9e9e",
};
const WIDTH = 900;
const HEIGHT = 360;
const PAD = { left: 70, right: 20, top: 20, bottom: 40 };

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// A closed copy a correction gave back without its end (domain/fact_text.py mended_ends):
// retired as "corrected", but its fact was written again at that instant, so the end was
// the mistake, not the value. RabbitMQ, closed by a wrong "Redis streams" and given back
// when that was corrected, is no orange "never true".
export function mendedEnds(versions) {
  const again = new Set(versions.map((v) => `${v.fact_id} ${Date.parse(v.created_at)}`));
  return new Set(
    versions
      .filter((v) => v.retired_reason === "corrected" && v.expired_at &&
        again.has(`${v.fact_id} ${Date.parse(v.expired_at)}`))
      .map((v) => v.version_id),
  );
}

export function endedHow(version, mended = new Set()) {
  if (mended.has(version.version_id)) return "end corrected";
  return version.retired_reason || (version.invalid_at ? "ended" : "current");
}

export function drawDiagram(versions, now, zone) {
  const svg = element("svg", { width: WIDTH, height: HEIGHT, id: "diagram", role: "img" });
  const time = (value) => (value ? Date.parse(value) : now);
  const xs = versions.flatMap((v) => [time(v.valid_at), time(v.invalid_at)]);
  const ys = versions.flatMap((v) => [time(v.created_at), time(v.expired_at)]);
  const span = (values) => {
    const low = Math.min(...values);
    const high = Math.max(...values);
    return [low, high > low ? high : low + 1000];
  };
  const [x0, x1] = span(xs);
  const [y0, y1] = span(ys);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (t) => PAD.left + ((t - x0) / (x1 - x0)) * plotW;
  // Record time runs up the page: later beliefs sit higher.
  const y = (t) => PAD.top + plotH - ((t - y0) / (y1 - y0)) * plotH;
  const label = (t) => new Date(t).toLocaleString(undefined, { timeZone: zone || undefined });
  element("line", { x1: PAD.left, y1: PAD.top + plotH, x2: WIDTH - PAD.right, y2: PAD.top + plotH, stroke: "#999" }, svg);
  element("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: PAD.top + plotH, stroke: "#999" }, svg);
  element("text", { x: PAD.left, y: HEIGHT - 8, "font-size": 11 }, svg).textContent =
    `valid time → ${label(x0)} … ${label(x1)}`;
  const axis = element("text", { x: 12, y: PAD.top + plotH, "font-size": 11, transform: `rotate(-90 12 ${PAD.top + plotH})` }, svg);
  axis.textContent = "record time →";
  const ordered = [...versions].sort((a, b) => time(a.created_at) - time(b.created_at));
  // Many versions: thin strokes and labels only where they fit.
  const mended = mendedEnds(versions);
  for (const version of ordered) {
    const how = endedHow(version, mended);
    const left = x(time(version.valid_at));
    const right = Math.max(left + 2, x(time(version.invalid_at)));
    const top = y(time(version.expired_at));
    const bottom = Math.max(top + 2, y(time(version.created_at)));
    const group = element("g", {
      class: `version ${how.replace(" ", "-")}`, "data-version": version.version_id, tabindex: 0,
      "aria-label": `${version.object}, ${how}`,
    }, svg);
    element("rect", {
      x: left, y: top, width: right - left, height: bottom - top,
      fill: COLOURS[how] || "#999", "fill-opacity": 0.45, stroke: COLOURS[how] || "#999",
      "data-created": version.created_at,
    }, group);
    element("title", {}, group).textContent =
      `${version.object} (${how})\nvalid ${label(time(version.valid_at))} → ${version.invalid_at ? label(time(version.invalid_at)) : "now"}` +
      `\nrecorded ${label(time(version.created_at))} → ${version.expired_at ? label(time(version.expired_at)) : "now"}` +
      `\nfact ${version.fact_id}, version ${version.version_id}`;
    if (bottom - top >= 12 && right - left >= 30) {
      const text = element("text", { x: left + 4, y: bottom - 4, "font-size": 11 }, group);
      text.textContent = version.object.length > 40 ? `${version.object.slice(0, 39)}…` : version.object;
    }
  }
  return svg;
}

// The episodes behind each fact's versions, asked once per fact while the diagram is open.
function episodesOf(factId, cache) {
  if (!cache.has(factId)) {
    cache.set(factId, api("GET", `/v1/facts/${encodeURIComponent(factId)}/episodes`));
  }
  return cache.get(factId);
}

// Hovering or focusing a rectangle shows its version under the diagram, with the episode
// (the person's words or the tool event) that carried it.
function versionDetail(svg, versions, zone) {
  const detail = document.createElement("div");
  detail.id = "version-detail";
  detail.setAttribute("aria-live", "polite");
  detail.className = "muted";
  detail.textContent = "Point at a rectangle (or Tab to it) to see its version and the episode that carried it.";
  const byId = new Map(versions.map((v) => [v.version_id, v]));
  const mended = mendedEnds(versions);
  const cache = new Map();
  const at = (value) => (value ? new Date(value).toLocaleString(undefined, { timeZone: zone || undefined }) : "now");
  let shown = "";
  async function show(version) {
    shown = version.version_id;
    detail.className = "";
    detail.textContent =
      `${version.object} (${endedHow(version, mended)}) · valid ${at(version.valid_at)} → ${at(version.invalid_at)}` +
      ` · recorded ${at(version.created_at)} → ${at(version.expired_at)} · written by ${version.writer || "unknown"}`;
    const line = document.createElement("div");
    line.className = "episode";
    line.textContent = "episode: …";
    detail.append(line);
    try {
      const answer = await episodesOf(version.fact_id, cache);
      if (shown !== version.version_id) return;
      const own = answer.versions.find((v) => v.version_id === version.version_id);
      const episodes = own ? own.episodes : [];
      line.textContent = episodes.length
        ? episodes.map((e) => `episode (${e.source}, ${at(e.created_at)}): ${e.content}`).join("\n")
        : "episode: none (written without the person's words or a tool event)";
    } catch (error) {
      line.textContent = `episode: not available (${error.message})`;
    }
  }
  for (const group of svg.querySelectorAll("g.version")) {
    const version = byId.get(group.dataset.version);
    group.addEventListener("mouseenter", () => show(version));
    group.addEventListener("focus", () => show(version));
  }
  return detail;
}

export async function showSlotHistory(host, fact, zone) {
  const query = new URLSearchParams({
    subject: fact.subject,
    predicate: fact.predicate,
    include_history: true,
    all_workspaces: true,
  });
  // One slot's history is its workspace's: another worktree's values of the same name are
  // that worktree's slot (a value that applies everywhere belongs to both).
  const facts = (await api("GET", `/v1/facts?${query}`)).facts.filter(
    (f) => !f.workspace || !fact.workspace || f.workspace === fact.workspace,
  );
  host.innerHTML = "";
  const heading = document.createElement("h3");
  heading.textContent = `${fact.subject} · ${fact.predicate}: ${facts.length} version(s)`;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "close (Esc)";
  close.addEventListener("click", () => (host.innerHTML = ""));
  const legend = document.createElement("p");
  legend.className = "muted";
  legend.textContent = "green current · blue ended (the world changed) · orange corrected (never true) · teal outdated (told with no start after it had changed) · red retracted · purple held back (rode refused turns) · grey rewritten (still true, written again: vouched for more, or filed under another slot) or end corrected (a correction gave the value back without this end)";
  const svg = drawDiagram(facts, Date.now(), zone);
  host.append(heading, close, legend, svg, versionDetail(svg, facts, zone));
  host.scrollIntoView({ block: "nearest" });
}
