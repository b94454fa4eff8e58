// A phone's board fills what the screen has left. The CSS sizes the cards from
// `--chrome`: the height of everything in view that is not cards (site header, reader,
// piles, captions, paddings). That height changes during a game: the last result, a
// refused touch or a pile's last card add lines above the field. A fixed estimate pushed
// the field's last row off a 390 × 844 screen after the first take, so the page measures
// it. `chromeHeight` is pure (tests/js/karuta-fit.test.mjs).

/**
 * The non-card height, in px: from the top of the page to the bottom of the last thing that
 * must be in view (`bottom`), plus the space kept under it, minus the heights of the card
 * areas inside that span. It does not depend on the cards' size, so setting it is stable.
 */
export function chromeHeight({ bottom, below, cardHeights }) {
  const cards = cardHeights.reduce((sum, h) => sum + h, 0);
  return Math.max(0, Math.ceil(bottom + below - cards));
}

/** Where the competitive board's own caption or the chirashi field ends, and the cards in it. */
function measure(root, board) {
  const competitive = board.classList.contains("is-competitive");
  const last = root.querySelector(competitive ? "[data-caption-own]" : "[data-scatter]");
  if (!last || last.hidden) return null;
  const cardHeights = competitive
    ? [...board.querySelectorAll(".side .krow")].map((row) => row.getBoundingClientRect().height)
    : [last.getBoundingClientRect().height];
  const style = getComputedStyle(board);
  const below = parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) + 2;
  return { bottom: last.getBoundingClientRect().bottom + scrollY, below, cardHeights };
}

/** Keep `--chrome` on `root` true as the page's parts change size. */
export function bindFit(root, board) {
  if (!root || !board || typeof ResizeObserver === "undefined") return;
  let shown = null;
  const fit = () => {
    const m = measure(root, board);
    if (!m) return;
    const px = chromeHeight(m);
    if (shown !== null && Math.abs(px - shown) < 1) return; // the cards' own resize comes back here
    shown = px;
    root.style.setProperty("--chrome", `${px}px`);
  };
  const observer = new ResizeObserver(fit);
  for (const el of [document.querySelector("header"), document.querySelector(".play-title"), root.querySelector(".reader"), board]) {
    if (el) observer.observe(el);
  }
  for (const el of board.querySelectorAll("[data-piles], [data-caption-opponent], [data-caption-own], [data-centre-line]")) observer.observe(el);
  addEventListener("resize", fit);
}
