// The trainer by keyboard: 1–8 pick a card during a choice drill, Esc stops the drill.
// (Tab reaches every button; Enter answers a typed drill through its form.)
export function wireKeys(app) {
  document.addEventListener("keydown", (event) => {
    if (!app.drill?.running || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "Escape") {
      event.preventDefault();
      app.drill.stop();
      return;
    }
    if (event.target instanceof HTMLInputElement) return; // typing an answer
    const digit = Number(event.key);
    if (!Number.isInteger(digit) || digit < 1) return;
    const button = document.querySelectorAll("#drill-options button")[digit - 1];
    if (button) {
      event.preventDefault();
      app.drill.answer({ chosen: Number(button.dataset.poem) });
    }
  });
}
