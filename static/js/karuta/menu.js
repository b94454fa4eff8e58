// The karuta menu: show only the fields that apply to the way of playing chosen, and the
// start buttons that fit it: competitive and chirashi against CPUs or with friends (a
// room and its invitation URL), solo practice alone. Without this script every field and
// button is shown and the server sorts it out (the solo button always means solo practice).

const form = document.querySelector(".menu-form[data-game='karuta']");

const APPLIES = {
  players: ["chirashi"],
  otetsuki_penalty: ["chirashi"],
  lower_verse_twice: ["chirashi", "solo"],
  cpu_level: ["competitive", "chirashi", "genpei"],
  team_size: ["genpei"],
  enemy_size: ["genpei"],
  otetsuki_rule: ["genpei"],
};

// Which start buttons each way of playing offers (play_mode -> modes).
const BUTTONS = {
  cpu: ["competitive", "chirashi", "genpei"],
  friend: ["competitive", "chirashi", "genpei"],
  solo: ["solo"],
};

// Memorisation is a competitive custom: chirashi and solo start at once unless the
// player chose a time themselves. A casual competitive game defaults to 2 minutes; the
// official 15 stay in the list (games/karuta/options.py CASUAL_MEMORISE_SECONDS).
let memoriseChosen = false;
const CASUAL_MEMORISE = "120";

function update(event) {
  const mode = form.elements.mode?.value || "competitive";
  const memorise = form.elements.memorise_seconds;
  if (event?.target === memorise) memoriseChosen = true;
  if (event?.target?.name === "mode" && memorise && !memoriseChosen) {
    memorise.value = mode === "competitive" || mode === "genpei" ? CASUAL_MEMORISE : "0";
  }
  for (const [name, modes] of Object.entries(APPLIES)) {
    const box = form.querySelector(`[data-field='${name}']`);
    if (box) box.hidden = !modes.includes(mode);
  }
  // Genpei: a level for each other seat there is (yours is seat 1); the first
  // `team_size` seats are your team's.
  const mine = Number(form.elements.team_size?.value || 2);
  const seats = mine + Number(form.elements.enemy_size?.value || 2);
  for (const box of form.querySelectorAll("[data-field^='seat_level_']")) {
    const seat = Number(box.dataset.field.slice("seat_level_".length));
    box.hidden = mode !== "genpei" || seat >= seats;
    // Say which team the seat plays for: "CPU strength of seat 3 · Heike".
    const team = (seat < mine ? form.elements.team_size : form.elements.enemy_size)?.dataset.teamName;
    const label = box.querySelector("label");
    if (label && team) {
      label.dataset.base ??= label.textContent;
      label.textContent = `${label.dataset.base} · ${team}`;
    }
  }
  for (const button of form.querySelectorAll("[data-play-mode]")) {
    button.hidden = !(BUTTONS[button.dataset.playMode] ?? []).includes(mode);
  }
}

if (form) {
  form.addEventListener("change", update);
  update();
}
