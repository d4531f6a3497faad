// Errors that say what to do: the API's own message, or, when the server could not be
// reached at all, how to bring it back.
export function explain(error) {
  if (!error) return "";
  // fetch rejects with a TypeError only when no answer came back (server down, offline).
  if (error instanceof TypeError) {
    return "The twoclocks server did not answer: is `twoclocks serve` still running? Start it, then press Reload.";
  }
  return error.message;
}
