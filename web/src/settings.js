// The account's time zone and per-class places, saved with PUT /v1/settings.
import { api } from "./api.js";

const CLASSES = ["user", "rule", "project", "environment", "decision", "task"];
const PLACES = ["everywhere", "repo", "project", "worktree"];

export function settingsPanel(host, settings, showError) {
  const details = document.createElement("details");
  details.innerHTML =
    '<summary>Settings</summary><form id="settings-form">' +
    '<label>time zone <input name="timezone" placeholder="e.g. Europe/Istanbul" size="24"></label><br>' +
    CLASSES.map(
      (name) =>
        `<label>${name} facts apply to <select name="place-${name}"><option value="">the default</option>` +
        PLACES.map((place) => `<option>${place}</option>`).join("") +
        "</select></label><br>",
    ).join("") +
    '<button type="submit">Save settings</button> <span id="settings-saved" class="muted"></span></form>';
  const form = details.querySelector("form");
  form.elements.timezone.value = settings.timezone || "";
  for (const name of CLASSES) form.elements[`place-${name}`].value = (settings.places || {})[name] || "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const places = {};
    for (const name of CLASSES) {
      const place = form.elements[`place-${name}`].value;
      if (place) places[name] = place;
    }
    try {
      const saved = await api("PUT", "/v1/settings", {
        timezone: form.elements.timezone.value.trim() || null,
        places,
      });
      form.querySelector("#settings-saved").textContent = `saved; times show in ${saved.timezone || "this browser's zone"} after a reload`;
      showError(null);
    } catch (error) {
      showError(error);
    }
  });
  host.appendChild(details);
}
