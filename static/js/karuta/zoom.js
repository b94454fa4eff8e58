// A zoomed card: where the board is scaled down to fit a phone, the card under focus (or the
// finger) is shown large enough to read, away from the half of the screen it is in, so it
// never covers the card itself. Decorative (aria-hidden): the card's own button already
// has the text as its name. `zoomPlace` is pure (tests/js/karuta-zoom.test.mjs).

/** Legible kana are at least this big (px); smaller cards get the zoom. */
export const MIN_KANA_PX = 10;

/** Where the zoom goes: above or below, the half of the viewport the card is not in. */
export function zoomPlace(cardRect, viewportHeight) {
  const middle = cardRect.top + cardRect.height / 2;
  return middle > viewportHeight / 2 ? "top" : "bottom";
}

/** Whether a card drawn with this font size (px) needs the zoom to be read. */
export const needsZoom = (fontPx) => Number.isFinite(fontPx) && fontPx < MIN_KANA_PX;

export function bindZoom(board, zoom) {
  if (!board || !zoom) return;
  const show = (card) => {
    const face = card?.querySelector(".kcard-face");
    if (!face || !needsZoom(parseFloat(getComputedStyle(card).fontSize))) { zoom.hidden = true; return; }
    const copy = face.cloneNode(true);
    copy.classList.remove("upside-down"); // read the right way up, whichever side it lies on
    zoom.replaceChildren(copy);
    zoom.dataset.place = zoomPlace(card.getBoundingClientRect(), innerHeight);
    zoom.hidden = false;
  };
  const hide = () => { zoom.hidden = true; };
  // A finger shows the card it is on, while it is on it. Once a finger has touched the
  // page, focus alone (the tapped card's, or the neighbour the board moves it to when that
  // card is taken, or a redraw's) no longer opens the zoom: a finger is not on that card,
  // and the zoom would stay over the header. A key pressed gives focus the zoom back.
  let touched = false;
  const finger = (event) => event.pointerType !== "mouse";
  addEventListener("keydown", () => { touched = false; }, true);
  addEventListener("pointerdown", (event) => { if (finger(event)) touched = true; }, true);
  board.addEventListener("pointerdown", (event) => { if (finger(event)) show(event.target.closest?.(".kcard")); });
  for (const type of ["pointerup", "pointercancel"]) addEventListener(type, (event) => { if (finger(event)) hide(); }, true);
  board.addEventListener("focusin", (event) => { if (touched) hide(); else show(event.target.closest?.(".kcard")); });
  board.addEventListener("focusout", hide);
  board.addEventListener("pointerover", (event) => { if (event.pointerType !== "mouse") return; show(event.target.closest?.(".kcard")); });
  board.addEventListener("pointerout", (event) => { if (event.pointerType === "mouse") hide(); });
}
