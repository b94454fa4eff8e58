// Keyboard: the letter on each hand button plays that card (D draws, the placement keys
// choose where the bomb goes back), Escape closes the snatch targets. The keys are listed
// on the buttons and under "Shortcuts" (play.html); actions.keyAction maps them.

import { keyAction } from "./actions.js";

const typing = (target) => target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target?.isContentEditable;

/** Route the page's key presses to the panel (panel.js does what a click would). */
export function bindKeys(panel) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || !panel.model || typing(event.target)) return;
    if (event.key === "Escape" && panel.targetsFor) {
      event.preventDefault();
      panel.closeTargets(true);
      return;
    }
    if (panel.root.closest("[hidden]") || panel.root.hidden) return; // blind screen up
    const hit = keyAction(panel.model, event.key);
    if (!hit) return;
    event.preventDefault();
    if (hit.kind === "draw") {
      panel.draw.focus();
      panel.doDraw();
    } else if (hit.kind === "card") {
      panel.root.querySelector(`[data-focus-key="kind:${hit.group.kind}"]`)?.focus();
      panel.doCard(hit.group.kind);
    } else if (hit.kind === "place") {
      panel.doPlace(hit.where);
    }
  });
}
