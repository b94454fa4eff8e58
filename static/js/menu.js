// Every game's menu (matches/_menu.html): short choices become segmented controls, the
// chosen rules are summarised beside the start buttons, the hot-seat button's player
// count follows the players field, and where a friend room was created from is reported.
//
// Without this script the menu is the plain form (selects), and it works the same. The
// selects stay the form's fields (their values are what is posted); the segmented radios
// only set them, so a game's own menu script that sets a select is followed too.

import * as telemetry from "./telemetry.js";

const MAX_SEGMENTS = 5;
let counter = 0;

/** Replace a short select by a row of radio "segments" that drive it. */
function segment(select) {
  const label = select.form.querySelector(`label[for='${select.id}']`);
  const group = document.createElement("div");
  // Long choices (whole rules) read better as a column of cards than as one row.
  const long = [...select.options].some((o) => o.textContent.trim().length > 14);
  group.className = long ? "segmented stacked" : "segmented";
  group.setAttribute("role", "radiogroup");
  if (label) {
    label.id ||= `${select.id}-label`;
    group.setAttribute("aria-labelledby", label.id);
  }
  const describedBy = select.getAttribute("aria-describedby");
  if (describedBy) group.setAttribute("aria-describedby", describedBy);
  const name = `_segment_${select.name}`; // not a field of the form: the server ignores it
  counter += 1;
  for (const option of select.options) {
    const id = `seg-${counter}-${option.index}`;
    const input = document.createElement("input");
    input.type = "radio";
    input.name = name;
    input.id = id;
    input.value = option.value;
    input.checked = option.selected;
    input.addEventListener("change", () => {
      select.value = option.value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const text = document.createElement("label");
    text.htmlFor = id;
    text.textContent = option.textContent;
    group.append(input, text);
  }
  select.classList.add("segmented-source");
  select.tabIndex = -1;
  select.setAttribute("aria-hidden", "true");
  select.after(group);
  return () => { for (const input of group.querySelectorAll("input")) input.checked = input.value === select.value; };
}

/** "4 players · Semimaru: a monk · …": what is chosen, in the menu's own words. */
function summary(form) {
  const parts = [];
  for (const box of form.querySelectorAll(".menu-settings [data-field], .menu-settings .menu-level, .menu-cpu-level")) {
    if (box.hidden || box.closest("[hidden]")) continue;
    const select = box.querySelector("select");
    const checked = box.querySelector("input[type=radio]:checked:not([name^='_segment_'])");
    const check = box.querySelector("input[type=checkbox]");
    const label = (box.querySelector("label, legend")?.textContent ?? "").trim().replace(/[:：]$/, "");
    if (select) parts.push(`${label}: ${select.selectedOptions[0]?.textContent.trim() ?? ""}`);
    else if (checked) parts.push(`${label}: ${form.querySelector(`label[for='${checked.id}']`)?.textContent.trim() ?? checked.value}`);
    else if (check?.checked) parts.push(label);
  }
  return parts;
}

for (const form of document.querySelectorAll(".menu-form")) {
  const syncs = [];
  for (const select of form.querySelectorAll(".menu-settings select, .menu-cpu-level select")) {
    if (select.options.length <= MAX_SEGMENTS) syncs.push(segment(select));
  }
  const players = form.elements.players;
  const out = form.querySelector("[data-menu-summary]");
  const render = () => {
    for (const sync of syncs) sync();
    if (players) for (const el of form.querySelectorAll("[data-player-count]")) el.textContent = players.value;
    if (out) {
      const list = document.createElement("ul");
      list.append(...summary(form).map((text) => { const li = document.createElement("li"); li.textContent = text; return li; }));
      out.replaceChildren(list);
    }
  };
  // After every other change handler (a game's menu script may set fields in its own).
  form.addEventListener("change", () => setTimeout(render));
  render();
  form.addEventListener("submit", (event) => {
    if (event.submitter?.value === "friend") telemetry.roomCreated("menu");
  });
}
