// The button panel: the hand as one button per kind, the snatch target choice, the draw
// button with the draws still owed, the bomb-placement choice (keys: keyboard.js). The
// panel alone plays the whole game. Buttons that cannot be used now are aria-disabled
// rather than disabled, so the focus never falls out of the panel while others play.

import { cap, fmt } from "../text.js";
import { placeAction, placeRefusal, playAction } from "./actions.js";

const $ = (root, sel) => root.querySelector(sel);
const $$ = (root, sel) => [...root.querySelectorAll(sel)];

const setUsable = (button, usable) => button.setAttribute("aria-disabled", usable ? "false" : "true");
const usable = (button) => button && button.getAttribute("aria-disabled") !== "true" && !button.hidden;

export class Panel {
  constructor(root, S, { act, seatName, handCount }) {
    this.root = root;
    this.S = S;
    this.act = act; // (action) => void
    this.seatName = seatName;
    this.handCount = handCount;
    this.model = null;
    this.targetsFor = null; // the snatch group whose targets are shown
    this.busy = false; // an action is on its way: ignore presses until the next frame
    this.draw = $(root, "[data-draw]");
    this.draw.addEventListener("click", () => this.doDraw());
    for (const button of $$(root, "[data-place-where]")) {
      button.addEventListener("click", () => this.doPlace(button.dataset.placeWhere));
    }
    $(root, "[data-place-n]").addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.doPlace("position");
      }
    });
    $(root, "[data-targets-cancel]").addEventListener("click", () => this.closeTargets(true));
  }

  /** Redraw from a panel model (actions.panelModel); keep or move the focus sensibly. */
  render(model) {
    const previous = this.model;
    const focusKey = this.root.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
    const focusLost = document.activeElement === document.body || document.activeElement === null;
    this.model = model;
    this.busy = false;
    this.renderHand(model);
    this.renderDraw(model);
    this.renderPlace(model);
    if (this.targetsFor) {
      const group = model.groups.find((g) => g.kind === "snatch" && g.playable);
      if (group && model.phase === "act") this.showTargets(group, false);
      else this.closeTargets(false);
    }
    // Focus: stay on the same control if it is still there; otherwise go where the next
    // move is made (placement first, then the draw button).
    const phaseChanged = !previous || previous.phase !== model.phase;
    const again = focusKey && $(this.root, `[data-focus-key="${focusKey}"]`);
    if (model.phase === "place" && (phaseChanged || !again)) this.focusFirst();
    else if (again) again.focus();
    else if (focusKey || (focusLost && phaseChanged && model.phase === "act")) this.focusFirst();
  }

  /** The control where this seat's next move starts. */
  focusFirst() {
    const m = this.model;
    let target = null;
    if (m?.phase === "place") target = $$(this.root, "[data-place-where]").find((b) => !b.closest("[hidden]"));
    else if (m?.phase === "act") target = this.draw.getAttribute("aria-disabled") === "false" ? this.draw : $(this.root, "[data-hand] button[aria-disabled=false]");
    (target ?? this.draw).focus();
  }

  renderHand(model) {
    const S = this.S;
    const list = $(this.root, "[data-hand]");
    if (!model.groups.length) {
      const hasHand = model.phase !== "none";
      list.replaceChildren(...(hasHand ? [Object.assign(document.createElement("li"), { className: "empty", textContent: S.emptyHand })] : []));
      return;
    }
    const canAct = model.phase === "act" && !this.busy;
    list.replaceChildren(...model.groups.map((group) => {
      const li = document.createElement("li");
      li.className = `hand-group hand-${group.kind}`;
      li.dataset.kind = group.kind;
      li.dataset.count = group.count;
      const name = S.kinds[group.kind] ?? group.kind;
      if (!group.key) {
        // Wire cutters and blanks: listed, never played.
        li.append(Object.assign(document.createElement("span"), { className: "card-name", textContent: `${name} ×${group.count}` }),
          Object.assign(document.createElement("span"), { className: "card-note", textContent: S.cantPlay }));
        return li;
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "card-button secondary";
      button.dataset.focusKey = `kind:${group.kind}`;
      button.dataset.play = group.kind;
      setUsable(button, canAct && group.playable);
      const label = document.createElement("span");
      label.className = "card-name";
      label.textContent = `${name} ×${group.count}`;
      const key = document.createElement("kbd");
      key.textContent = group.key;
      button.append(label, " ", key);
      if (group.endsTurn) {
        const note = document.createElement("span");
        note.className = "card-note";
        note.textContent = S.endsTurn;
        button.append(" ", note);
      }
      button.addEventListener("click", () => this.doCard(group.kind));
      li.append(button);
      return li;
    }));
  }

  renderDraw(model) {
    const owed = model.owed;
    $(this.root, "[data-draw-owed]").textContent = owed > 0 ? fmt(this.S.owed, { n: owed }) : "";
    this.draw.dataset.owed = owed;
    this.draw.dataset.focusKey = "draw";
    setUsable(this.draw, model.phase === "act" && model.draw.enabled && !this.busy);
  }

  renderPlace(model) {
    const box = $(this.root, "[data-place]");
    box.hidden = model.phase !== "place";
    if (box.hidden) return;
    for (const button of $$(box, "[data-place-where]")) {
      const where = button.dataset.placeWhere;
      button.dataset.focusKey = `place:${where}`;
      const allowed = where === "position" ? Boolean(model.place.position) : model.place.where.includes(where);
      button.hidden = !allowed;
    }
    const positionBox = $(box, "[data-place-position]");
    positionBox.hidden = !model.place.position;
    if (model.place.position) {
      // People count from 1 (the top card); the action counts from 0.
      const input = $(box, "[data-place-n]");
      input.min = model.place.position.min + 1;
      input.max = model.place.position.max + 1;
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < Number(input.min) || n > Number(input.max)) input.value = input.min;
    }
  }

  showTargets(group, focus = true) {
    this.targetsFor = group.kind;
    const box = $(this.root, "[data-targets]");
    const buttons = group.targets.map((seat) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.dataset.target = seat;
      button.dataset.focusKey = `target:${seat}`;
      button.textContent = fmt(this.S.snatchFrom, { seat: cap(this.seatName(seat)), n: this.handCount(seat) });
      button.addEventListener("click", () => this.send(playAction(group, seat)));
      return button;
    });
    $(box, "[data-target-buttons]").replaceChildren(...buttons);
    box.hidden = false;
    if (focus) buttons[0]?.focus();
  }

  closeTargets(focusBack) {
    const wasOpen = this.targetsFor !== null;
    this.targetsFor = null;
    $(this.root, "[data-targets]").hidden = true;
    if (wasOpen && focusBack) $(this.root, '[data-focus-key="kind:snatch"]')?.focus();
  }

  send(action) {
    if (!action || this.busy) return;
    this.busy = true;
    // A target button is about to be hidden: keep the focus in the panel, on the card.
    if ($(this.root, "[data-targets]").contains(document.activeElement)) {
      $(this.root, '[data-focus-key="kind:snatch"]')?.focus();
    }
    this.closeTargets(false);
    // Until the server answers, nothing else may be pressed (a double press would be stale).
    for (const button of $$(this.root, "[data-hand] button, [data-draw]")) setUsable(button, false);
    this.act(action);
  }

  doCard(kind) {
    const m = this.model;
    if (!m || m.phase !== "act" || this.busy) return;
    const group = m.groups.find((g) => g.kind === kind);
    if (!group || !group.playable) return;
    if (group.targets) {
      if (group.targets.length === 1) this.send(playAction(group, group.targets[0]));
      else this.showTargets(group);
      return;
    }
    this.send(playAction(group));
  }

  doDraw() {
    const m = this.model;
    if (!m || m.phase !== "act" || !m.draw.enabled || this.busy) return;
    this.send({ type: "draw" });
  }

  doPlace(where) {
    const m = this.model;
    if (!m || m.phase !== "place" || this.busy) return;
    let choice = where;
    if (where === "position") choice = Number($(this.root, "[data-place-n]").value) - 1;
    const action = placeAction(m.place, choice);
    if (!action) {
      // Say why: a position beyond the deck (or none typed) is not a place in it.
      const range = placeRefusal(m.place, choice);
      if (range) $(document, "[data-panel-error]").textContent = fmt(this.S.placeRange, range);
      $(this.root, "[data-place-n]").focus();
      return;
    }
    this.busy = true;
    // The placement choice is about to close: wait on the draw button for the next turn.
    this.draw.focus();
    this.act(action);
  }
}
