// A small line chart (SVG markup) of one series per seat over the game: hand sizes in Bozu,
// take times in karuta. Pure (Node-tested). A null value is a gap (a reading not touched).

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * @param {Array<{label: string, colour: string, values: Array<number|null>}>} series
 * @param {{title: string, unit?: string}} options  title: the picture's accessible name
 */
export function lineChartSvg(series, { title = "", unit = "" } = {}) {
  const W = 360; const H = 180; const left = 36; const right = 8; const top = 10; const bottom = 22;
  const length = Math.max(1, ...series.map((s) => s.values.length));
  const all = series.flatMap((s) => s.values).filter((v) => v !== null && Number.isFinite(v));
  const max = Math.max(1, ...all);
  const x = (i) => left + (length === 1 ? 0 : ((W - left - right) * i) / (length - 1));
  const y = (v) => top + (H - top - bottom) * (1 - v / max);
  const lines = series.map((s) => {
    const parts = [];
    let pen = "M";
    s.values.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) { pen = "M"; return; }
      parts.push(`${pen}${x(i).toFixed(1)},${y(v).toFixed(1)}`);
      pen = "L";
    });
    const dots = s.values.map((v, i) => (v === null || !Number.isFinite(v) ? ""
      : `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5" class="seat-fill-${escape(s.colour)}"/>`)).join("");
    return `<g class="chart-series" data-series="${escape(s.label)}"><path d="${parts.join(" ")}" class="chart-line seat-stroke-${escape(s.colour)}" fill="none"/>${dots}</g>`;
  }).join("");
  const axis = `<line x1="${left}" y1="${H - bottom}" x2="${W - right}" y2="${H - bottom}" class="chart-axis"/>`
    + `<line x1="${left}" y1="${top}" x2="${left}" y2="${H - bottom}" class="chart-axis"/>`
    + `<text x="${left - 4}" y="${top + 8}" text-anchor="end" class="chart-tick">${escape(formatMax(max))}${escape(unit)}</text>`
    + `<text x="${left - 4}" y="${H - bottom}" text-anchor="end" class="chart-tick">0</text>`
    + `<text x="${W - right}" y="${H - 6}" text-anchor="end" class="chart-tick">${length}</text>`;
  return `<svg class="line-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escape(title)}" xmlns="http://www.w3.org/2000/svg">${axis}${lines}</svg>`;
}

const formatMax = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
