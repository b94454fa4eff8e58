// Scores as a picture: one bar per seat in its colour, longest first. Pure (Node-tested):
// rows in, SVG markup out; the numbers are also written, so the picture is never the only
// way to read them.

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * @param {Array<{label: string, value: number, colour: string|null, place: number}>} rows
 * @param {{title: string, caption: string}} options  the picture's accessible name; a line
 *   written above the bars saying what they count (where a longer bar is not better:
 *   competitive karuta's cards left, the winner's bar empty)
 */
export function scoreBarsSvg(rows, { title = "", caption = "" } = {}) {
  const sorted = rows.slice().sort((a, b) => a.place - b.place || b.value - a.value);
  const max = Math.max(1, ...sorted.map((r) => r.value));
  const W = 320; const rowH = 30; const left = 112; const right = 40;
  const top = caption ? 22 : 0;
  const H = top + sorted.length * rowH + 6;
  const head = caption ? `<text x="4" y="15" class="score-caption">${escape(caption)}</text>` : "";
  const bars = sorted.map((r, i) => {
    const y = top + 4 + i * rowH;
    const w = Math.max(2, ((W - left - right) * r.value) / max);
    const crown = r.place === 1 ? "★ " : "";
    return `<g class="score-row" data-place="${r.place}">`
      + `<text x="${left - 6}" y="${y + 18}" text-anchor="end" class="score-label">${crown}${escape(r.label)}</text>`
      + `<rect x="${left}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 10}" rx="4" class="score-bar seat-fill-${r.colour ?? "none"}"/>`
      + `<text x="${(left + w + 6).toFixed(1)}" y="${y + 18}" class="score-value">${r.value}</text></g>`;
  }).join("");
  return `<svg class="score-bars" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escape(caption ? `${title}: ${caption}` : title)}" xmlns="http://www.w3.org/2000/svg">${head}${bars}</svg>`;
}
