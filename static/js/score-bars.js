// Scores as a picture: one bar per seat in its colour, longest first. Pure (Node-tested):
// rows in, SVG markup out; the numbers are also written, so the picture is never the only
// way to read them.

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * @param {Array<{label: string, value: number, colour: string|null, place: number}>} rows
 * @param {{title: string}} options  the picture's accessible name
 */
export function scoreBarsSvg(rows, { title = "" } = {}) {
  const sorted = rows.slice().sort((a, b) => a.place - b.place || b.value - a.value);
  const max = Math.max(1, ...sorted.map((r) => r.value));
  const W = 320; const rowH = 30; const left = 112; const right = 40;
  const H = sorted.length * rowH + 6;
  const bars = sorted.map((r, i) => {
    const y = 4 + i * rowH;
    const w = Math.max(2, ((W - left - right) * r.value) / max);
    const crown = r.place === 1 ? "★ " : "";
    return `<g class="score-row" data-place="${r.place}">`
      + `<text x="${left - 6}" y="${y + 18}" text-anchor="end" class="score-label">${crown}${escape(r.label)}</text>`
      + `<rect x="${left}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 10}" rx="4" class="score-bar seat-fill-${r.colour ?? "none"}"/>`
      + `<text x="${(left + w + 6).toFixed(1)}" y="${y + 18}" class="score-value">${r.value}</text></g>`;
  }).join("");
  return `<svg class="score-bars" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escape(title)}" xmlns="http://www.w3.org/2000/svg">${bars}</svg>`;
}
