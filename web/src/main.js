// The web screen: sign in with the account key, then the memory table or the graph explorer.
// The key stays in sessionStorage (gone when the tab closes) and travels only as Bearer.
import { api, clearKey, readKey, saveKey } from "./api.js";
import { explain } from "./errors.js";
import { renderFacts } from "./facts.js";

const root = document.getElementById("root");
// A path in a variable: esbuild leaves the import to the browser (a separate bundle).
const GRAPH_BUNDLE = "/static/graph.js";

function signInForm(message) {
  root.innerHTML = "";
  const form = document.createElement("form");
  form.id = "signin";
  form.innerHTML =
    '<label>Account key <input id="key" type="password" autocomplete="off" size="48" autofocus></label> ' +
    '<button type="submit">Sign in</button><p id="signin-error" class="error" role="alert"></p>' +
    '<p class="muted">The key is in the server\'s data directory (the file <code>key</code>); ' +
    "on the server's own machine, <code>twoclocks ui</code> opens this page already signed in.</p>";
  form.querySelector("#signin-error").textContent = message || "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    saveKey(form.querySelector("#key").value.trim());
    await start();
  });
  root.appendChild(form);
}

function signOut() {
  clearKey();
  signInForm("");
}

// Two screens under one sign-in: the memory table and the graph explorer.
async function start() {
  if (!readKey()) return signInForm("");
  try {
    const settings = await api("GET", "/v1/settings");
    root.innerHTML =
      '<nav><button id="to-memory" type="button" aria-pressed="true">Memory</button> ' +
      '<button id="to-graph" type="button" aria-pressed="false">Graph</button></nav><section id="screen"></section>';
    const screen = root.querySelector("#screen");
    const show = async (name) => {
      root.querySelector("#to-memory").setAttribute("aria-pressed", String(name === "memory"));
      root.querySelector("#to-graph").setAttribute("aria-pressed", String(name === "graph"));
      // Each showing draws into a fresh view: a screen left while it still loads (Graph
      // clicked before the first page came) finishes into its own detached view, never
      // over the screen shown now.
      const view = document.createElement("div");
      screen.replaceChildren(view);
      if (name === "graph") await (await import(GRAPH_BUNDLE)).renderGraph(view, settings);
      else await renderFacts(view, settings, signOut);
    };
    root.querySelector("#to-memory").addEventListener("click", () => show("memory"));
    root.querySelector("#to-graph").addEventListener("click", () => show("graph"));
    await show("memory");
  } catch (error) {
    clearKey();
    signInForm(explain(error));
  }
}

// `twoclocks ui` opens /#token=...: a one-time token, spent here for the key, then wiped
// from the address bar so neither the token nor the key stays in history.
async function redeemLinkToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!token) return "";
  history.replaceState(null, "", location.pathname);
  try {
    const { key } = await api("POST", "/v1/ui-token/redeem", { token });
    saveKey(key);
    return "";
  } catch (error) {
    return error.message;
  }
}

redeemLinkToken().then((message) => (message ? signInForm(message) : start()));
