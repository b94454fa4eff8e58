// Danger: the share of bombs among the cards left in the deck (RULES §4 "Information").
// Pure: no DOM, so node --test checks it (tests/games/bakudan/js/).

/** bombs ÷ cards as a number in [0, 1]; an empty deck (never happens in play) is 0. */
export function dangerRatio(bombs, cards) {
  if (!Number.isFinite(bombs) || !Number.isFinite(cards) || cards <= 0 || bombs <= 0) return 0;
  return Math.min(1, bombs / cards);
}

/** A word for the bar's colour and for people who cannot tell colours apart. */
export function dangerLevel(ratio) {
  if (ratio >= 0.5) return "extreme";
  if (ratio >= 0.25) return "high"; // the page's tip: peek once danger passes 25 %
  if (ratio >= 0.1) return "medium";
  return "low";
}

/** "25%" in the page's language; one decimal below 10 % so small changes still show. */
export function formatPercent(ratio, lang = "en") {
  const digits = ratio > 0 && ratio < 0.1 ? 1 : 0;
  return new Intl.NumberFormat(lang, {
    style: "percent",
    minimumFractionDigits: 0,
    maximumFractionDigits: digits,
  }).format(ratio);
}

/** Everything the danger meter shows, from a view (or null when there is no view). */
export function dangerModel(view, lang = "en") {
  if (!view) return null;
  // The view's own figure is the truth; recompute only if a view lacks it.
  const ratio = typeof view.danger === "number" ? view.danger : dangerRatio(view.bombs_in_deck, view.deck_count);
  return {
    ratio,
    percent: formatPercent(ratio, lang),
    level: dangerLevel(ratio),
    bombs: view.bombs_in_deck,
    cards: view.deck_count,
    width: `${Math.round(ratio * 1000) / 10}%`,
  };
}
