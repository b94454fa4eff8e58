// The Bozu Mekuri page: keep the tips' figures in step with the rules chosen in the menu.
// The server rounds and formats every figure once (games/bozu/views.py shown); this
// script only puts those strings in place, so the first render and later ones agree.

const form = document.querySelector(".menu-form[data-game='bozu']");
const data = JSON.parse(document.getElementById("bozu-figures")?.textContent || "null");

function chosen() {
  const value = (name) => form.elements[name]?.value;
  return {
    players: Number(value("players") || 4),
    semimaru: value("semimaru") || "monk",
    emperor: value("emperor") || "noble",
    princess_extra_draw: Boolean(form.elements.princess_extra_draw?.checked),
  };
}

function rowFor(settings) {
  return data.rows.find((row) => Object.entries(settings).every(([k, v]) => row.settings[k] === v));
}

// Must match games/bozu/views.py rules_key.
const keyOf = (s) => `${s.players}|${s.semimaru}|${s.emperor}|${s.princess_extra_draw ? 1 : 0}`;

function render() {
  const settings = chosen();
  const row = data && rowFor(settings);
  if (!row) return;
  const colours = Object.keys(data.colours).slice(0, settings.players);
  const body = document.querySelector("[data-figures-seats]");
  body.replaceChildren(...colours.map((colour, i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    const chip = document.createElement("span");
    chip.className = `seat-chip seat-${colour}`;
    th.append(chip, data.colours[colour]);
    const sole = document.createElement("td");
    sole.textContent = row.shown.sole[i];
    const shared = document.createElement("td");
    shared.textContent = row.shown.shared[i];
    tr.append(th, sole, shared);
    return tr;
  }));
  const set = (key, text) => { const el = document.querySelector(`[data-figure='${key}']`); if (el) el.textContent = text; };
  for (const key of ["draw_rate", "winner_mean_cards", "field_mean_cards", "biggest_move_mean"]) {
    set(key, row.shown[key]);
  }
  const rules = document.querySelector("[data-figures-rules]");
  if (rules && data.rules[keyOf(row.settings)]) rules.textContent = data.rules[keyOf(row.settings)];
}

if (form && data) {
  form.addEventListener("change", render);
  render();
}
