// The Bakudan Mekuri page: when a game link (?number=…) opened the menu, select the CPU
// personality the number was made with. (The menu's CPU select is the platform's, which
// always starts on the first level; the form has no cpu_level field of its own.)

const start = document.querySelector("[data-number-start]");
const level = start?.dataset.cpuLevel;
const select = document.querySelector(".menu-form select[name=cpu_level]");
if (level && select && [...select.options].some((o) => o.value === level)) {
  select.value = level;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}
