// Keyboard shortcuts for a screen: single keys act only when no field has the focus
// (so typing "n" in a filter types it); Escape always acts. A screen's keys stop when
// another screen replaces it (its root leaves the page).
let current = null;

export function onKeys(root, bindings) {
  if (current) document.removeEventListener("keydown", current);
  current = (event) => {
    if (!root.isConnected || event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement?.tagName || "");
    if (typing && event.key !== "Escape") return;
    const action = bindings[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  document.addEventListener("keydown", current);
}
