// The memory screen: sign in with the account key, then list the account's facts.
// The key stays in sessionStorage (gone when the tab closes) and travels only as Bearer.
import { api, clearKey, readKey, saveKey } from "./api.js";
import { renderFacts } from "./facts.js";

const root = document.getElementById("root");

function signInForm(message) {
  root.innerHTML = "";
  const form = document.createElement("form");
  form.id = "signin";
  form.innerHTML =
    '<label>Account key <input id="key" type="password" autocomplete="off" size="48" autofocus></label> ' +
    '<button type="submit">Sign in</button><p id="signin-error" class="error"></p>';
  form.querySelector("#signin-error").textContent = message || "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    saveKey(form.querySelector("#key").value.trim());
    await // `twoclocks ui` opens /#token=...: a one-time token, spent here for the key, then wiped
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
  });
  root.appendChild(form);
}

async function start() {
  if (!readKey()) return signInForm("");
  try {
    const settings = await api("GET", "/v1/settings");
    await renderFacts(root, settings, () => {
      clearKey();
      signInForm("");
    });
  } catch (error) {
    clearKey();
    signInForm(error.message);
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
