// Bozu card faces and backs as SVG markup, drawn by the site (no outside images).
//
// Pure: strings in, a string out, so Node tests can check every class. Each class differs
// in colour AND shape, so it reads at a glance and without colour vision:
//   monk 坊主      grey-blue, a round mark, a plain frame
//   princess 姫    crimson, a diamond mark, a scalloped (dotted) inner frame
//   noble 殿       green, a square mark, a single inner frame
//   emperor 天皇   gold, a crown (triangle) mark, a double frame
//   semimaru 蝉丸  purple, a hexagon mark, a dashed frame
// Nyudo (入道) are nobles in this game and share the noble's face.

export const W = 120;
export const H = 168;

export const CLASS_LOOK = {
  monk: { colour: "#4a5a70", paper: "#eef1f5", mark: "circle", glyph: "坊", frame: "plain" },
  princess: { colour: "#b3134f", paper: "#fdf0f4", mark: "diamond", glyph: "姫", frame: "dotted" },
  noble: { colour: "#2b6a4a", paper: "#f1f7f1", mark: "square", glyph: "殿", frame: "single" },
  emperor: { colour: "#9a6b00", paper: "#fdf6e1", mark: "crown", glyph: "帝", frame: "double" },
  semimaru: { colour: "#5b3c88", paper: "#f4effa", mark: "hexagon", glyph: "蝉", frame: "dashed" },
};

/** The look of a class; nyudo (and anything unknown) are drawn as nobles. */
export const lookOf = (cls) => CLASS_LOOK[cls === "nyudo" ? "noble" : cls] ?? CLASS_LOOK.noble;

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Split a poet's name into vertical columns read right to left, at most `per` characters
 * each (long court titles such as 後京極摂政前太政大臣 take two columns).
 */
export function nameColumns(name, per = 5) {
  const chars = [...String(name)];
  const count = Math.max(1, Math.ceil(chars.length / per));
  const size = Math.ceil(chars.length / count); // balanced columns
  const columns = [];
  for (let i = 0; i < chars.length; i += size) columns.push(chars.slice(i, i + size).join(""));
  return columns;
}

/** The SVG path of a class mark centred on (cx, cy) with radius r. */
export function markPath(mark, cx, cy, r) {
  const pts = (list) => `M${list.map(([x, y]) => `${(cx + x * r).toFixed(1)} ${(cy + y * r).toFixed(1)}`).join("L")}Z`;
  switch (mark) {
    case "circle": return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
    case "diamond": return pts([[0, -1.15], [1.05, 0], [0, 1.15], [-1.05, 0]]);
    case "square": return pts([[-0.9, -0.9], [0.9, -0.9], [0.9, 0.9], [-0.9, 0.9]]);
    case "crown": return pts([[-1, 0.85], [-1, -0.55], [-0.5, 0.05], [0, -1], [0.5, 0.05], [1, -0.55], [1, 0.85]]);
    case "hexagon": return pts([[0, -1.1], [0.95, -0.55], [0.95, 0.55], [0, 1.1], [-0.95, 0.55], [-0.95, -0.55]]);
    default: throw new Error(`unknown mark ${mark}`);
  }
}

function frame(look) {
  const inner = `x="8" y="8" width="${W - 16}" height="${H - 16}" rx="5" fill="none" stroke="${look.colour}"`;
  switch (look.frame) {
    case "double": return `<rect ${inner} stroke-width="2"/><rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="3" fill="none" stroke="${look.colour}" stroke-width="1"/>`;
    case "dashed": return `<rect ${inner} stroke-width="2" stroke-dasharray="7 4"/>`;
    case "dotted": return `<rect ${inner} stroke-width="3" stroke-dasharray="0.1 6" stroke-linecap="round"/>`;
    case "single": return `<rect ${inner} stroke-width="1.5"/>`;
    default: return "";
  }
}

/**
 * A card face: `card` is {poet, class}; `label` the class's name in the page's language
 * (the accessible name says it; the card itself shows the Japanese mark).
 */
export function faceSvg(card, label = "") {
  const cls = card.class === "nyudo" ? "noble" : card.class;
  const look = lookOf(cls);
  const columns = nameColumns(card.poet);
  // As large as fits: the longest column in the 100 units under the band, the columns in 96.
  const longest = Math.max(...columns.map((c) => [...c].length));
  const size = Math.min(20, 100 / (longest * 1.08), 96 / (columns.length * 1.15));
  const gap = size * 1.15;
  const right = W / 2 + ((columns.length - 1) * gap) / 2;
  const text = columns.map((column, i) => {
    const x = right - i * gap;
    const spans = [...column].map((ch, j) => `<tspan x="${x.toFixed(1)}" y="${(62 + j * size * 1.08).toFixed(1)}">${escape(ch)}</tspan>`).join("");
    return `<text class="face-name" font-size="${size.toFixed(1)}" text-anchor="middle">${spans}</text>`;
  }).join("");
  const name = escape(card.poet) + (label ? `（${escape(label)}）` : "");
  return `<svg class="bozu-face" data-class="${cls}" data-mark="${look.mark}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${name}" xmlns="http://www.w3.org/2000/svg">`
    + `<rect width="${W}" height="${H}" rx="8" fill="${look.paper}" stroke="${look.colour}" stroke-width="3"/>`
    + frame(look)
    + `<rect x="8" y="8" width="${W - 16}" height="34" rx="5" fill="${look.colour}"/>`
    + `<path d="${markPath(look.mark, W / 2, 25, 12)}" fill="${look.paper}"/>`
    + `<text class="face-mark" x="${W / 2}" y="30" font-size="14" text-anchor="middle" fill="${look.colour}">${look.glyph}</text>`
    + `<g fill="#1d1b18">${text}</g></svg>`;
}

/** The back of a card: the same for every card, so the pile reveals nothing. No ids or
 * patterns (many backs share a page): the lattice is one path. */
export function backSvg() {
  let lattice = "";
  for (let d = -H; d < W + H; d += 14) lattice += `M${d} 0L${d + H} ${H}M${d + H} 0L${d} ${H}`;
  return `<svg class="bozu-back" viewBox="0 0 ${W} ${H}" aria-hidden="true" xmlns="http://www.w3.org/2000/svg">`
    + `<rect width="${W}" height="${H}" rx="8" fill="#7a2626"/>`
    + `<path d="${lattice}" stroke="#9b3b35" stroke-width="3"/>`
    + `<rect x="2.5" y="2.5" width="${W - 5}" height="${H - 5}" rx="7" fill="none" stroke="#f3e6c4" stroke-width="5"/>`
    + `<circle cx="${W / 2}" cy="${H / 2}" r="22" fill="#f3e6c4"/><circle cx="${W / 2}" cy="${H / 2}" r="15" fill="none" stroke="#7a2626" stroke-width="3"/></svg>`;
}

/** How many edge layers a pile of `count` cards shows: one per few cards, at least one. */
export const pileLayers = (count) => (count <= 0 ? 0 : Math.min(12, Math.max(1, Math.ceil(count / 4))));
