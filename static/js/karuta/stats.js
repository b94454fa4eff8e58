// Solo practice statistics and their chart. Pure (Node-tested): records in, figures and
// SVG markup out.

/** Same order as games/karuta/stats.slowest_poems: missed first, then slowest after the kimariji. */
export function slowestPoems(records, n) {
  return records.slice().sort((a, b) => {
    const ma = a.t === null ? 0 : 1;
    const mb = b.t === null ? 0 : 1;
    return ma - mb || (b.after_kimariji ?? 0) - (a.after_kimariji ?? 0) || a.poem - b.poem;
  }).slice(0, n).map((r) => r.poem);
}

export function median(sorted) {
  if (!sorted.length) return null;
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** {taken, total, mean, median, mistakes}; times in ms after the deciding sound. */
export function soloFigures(records) {
  const taken = records.filter((r) => r.t !== null);
  const after = taken.map((r) => r.after_kimariji).sort((a, b) => a - b);
  return {
    taken: taken.length,
    total: records.length,
    mean: after.length ? after.reduce((a, b) => a + b, 0) / after.length : null,
    median: median(after),
    mistakes: records.reduce((n, r) => n + r.wrong.length, 0),
  };
}

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One bar per poem in reading order: the time from the deciding sound to the take; missed
 * poems reach the top in red, wrong touches add a ×. `label(record)` names a bar.
 */
export function soloChartSvg(records, { title, axis, label }) {
  const W = 640; const H = 220; const left = 44; const bottom = 28; const top = 10;
  const values = records.map((r) => (r.t === null ? null : Math.max(0, r.after_kimariji)));
  const maxMs = Math.max(1000, ...values.filter((v) => v !== null));
  const scaleMax = Math.ceil(maxMs / 500) * 500;
  const plotH = H - bottom - top;
  const step = (W - left - 6) / Math.max(1, records.length);
  const parts = [`<title id="solo-chart-title">${escape(title)}</title>`];
  for (let ms = 0; ms <= scaleMax; ms += scaleMax / 4) {
    const y = top + plotH - (ms / scaleMax) * plotH;
    parts.push(`<line x1="${left}" x2="${W}" y1="${y}" y2="${y}" class="grid"/>`);
    parts.push(`<text x="${left - 4}" y="${y + 4}" class="axis" text-anchor="end">${(ms / 1000).toFixed(1)}s</text>`);
  }
  records.forEach((r, i) => {
    const x = left + i * step + step * 0.15;
    const w = step * 0.7;
    const missed = r.t === null;
    const h = ((missed ? scaleMax : values[i]) / scaleMax) * plotH;
    const cls = missed ? "bar missed" : r.wrong.length ? "bar wrong" : "bar";
    parts.push(`<rect x="${x}" y="${top + plotH - h}" width="${w}" height="${Math.max(1, h)}" class="${cls}"><title>${escape(label(r))}</title></rect>`);
    if (r.wrong.length) parts.push(`<text x="${x + w / 2}" y="${top + plotH - h - 3}" class="mark" text-anchor="middle">×</text>`);
    if (records.length <= 25 || i % 5 === 0) parts.push(`<text x="${x + w / 2}" y="${H - bottom + 14}" class="axis" text-anchor="middle">${i + 1}</text>`);
  });
  parts.push(`<text x="${W / 2}" y="${H - 4}" class="axis" text-anchor="middle">${escape(axis)}</text>`);
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="solo-chart-title" class="chart" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`;
}
