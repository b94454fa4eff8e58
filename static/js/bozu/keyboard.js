// Keyboard: "d" draws when it is your turn (the draw buttons also take Enter and Space).
// The shortcut is listed on the page (play.html, "Shortcuts").

export function isDrawKey(event) {
  return event.key.toLowerCase() === "d" && !event.ctrlKey && !event.metaKey && !event.altKey &&
    !(event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target?.isContentEditable);
}

export function bindKeys(controller) {
  document.addEventListener("keydown", (event) => {
    if (isDrawKey(event) && controller.canDraw()) { event.preventDefault(); controller.draw(); }
  });
}
