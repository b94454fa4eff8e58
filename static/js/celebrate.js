// A small celebration for a win: petals falling over the result box. Decoration only —
// nothing under prefers-reduced-motion, and gone after a few seconds.

export function celebrate(box) {
  const petals = box.querySelector("[data-celebration]");
  if (!petals || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  petals.replaceChildren(...Array.from({ length: 18 }, (_, i) => {
    const petal = document.createElement("span");
    petal.className = "petal";
    petal.style.setProperty("--x", `${(i * 37) % 100}%`);
    petal.style.setProperty("--delay", `${(i % 6) * 0.18}s`);
    return petal;
  }));
  setTimeout(() => petals.replaceChildren(), 4000);
}
