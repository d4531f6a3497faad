// Revising asks why, because the two reasons mean different things on the two clocks.
const REASONS = {
  ended: "ended: it was true, and stopped being true (the world changed); history keeps it as once true",
  corrected: "corrected: it was never true (a mistake); history keeps it only as a past belief",
};

// An ended value can still turn out never to have been true: it takes "corrected" only
// (DESIGN §3), so its form offers that reason alone and no end time.
export function reviseForm(host, fact, submit, reasons = Object.keys(REASONS)) {
  host.innerHTML = "";
  const form = document.createElement("form");
  form.id = "revise-form";
  form.innerHTML =
    `<fieldset><legend></legend>` +
    Object.entries(REASONS)
      .filter(([reason]) => reasons.includes(reason))
      .map(
        ([reason, text]) =>
          `<label><input type="radio" name="reason" value="${reason}" required> ${text}</label><br>`,
      )
      .join("") +
    '<label>new value (optional) <input name="replacement" size="40"></label> ' +
    (reasons.includes("ended") ? '<label>ended at (optional, ended only) <input name="at" type="datetime-local"></label> ' : "") +
    '<button type="submit">Revise</button> <button type="button" id="revise-cancel">Cancel</button></fieldset>';
  form.querySelector("legend").textContent = `Revise ${fact.subject} ${fact.predicate} = ${fact.object}`;
  form.querySelector("#revise-cancel").addEventListener("click", () => (host.innerHTML = ""));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = { reason: data.get("reason") };
    const replacement = String(data.get("replacement") || "").trim();
    if (replacement) body.replacement = { object: replacement };
    const at = String(data.get("at") || "");
    // datetime-local has no offset; the browser's own zone gives it one, as the API requires.
    if (at && body.reason === "ended") body.at = new Date(at).toISOString();
    submit(body);
  });
  host.appendChild(form);
  form.querySelector("input").focus();
}
