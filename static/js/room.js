// The room panel shared by every play screen: seats and presence (by team where the game
// has seat groups, which the creator may rearrange before the start), the invitation
// URL with a copy button, start with CPU, resign / leave, invite again, the notice
// when the CPU plays for an absent player (on the board: matches/_away_notice.html; the
// marks by the seats are the board views', away.js), and the way to the next game.

import { idleSeat, secondsLeft } from "./away.js";
import { groupOf, swapTargets } from "./seat-groups.js";
import { seatName } from "./seats.js";
import * as telemetry from "./telemetry.js";
import { cap, fmt } from "./text.js";

const $ = (root, sel) => root.querySelector(sel);

export class Room {
  /** stoppable: the screen shows a resigned match's end, so games against CPUs only may resign. */
  /** groupLabel(i): the name of seat group i (a team), when the page's config has groups. */
  constructor(client, config, { stoppable = false, groupLabel = null } = {}) {
    this.client = client;
    this.config = config;
    this.stoppable = stoppable;
    this.groupLabel = groupLabel;
    this.root = document.querySelector("[data-room]");
    this.S = JSON.parse(document.getElementById("room-strings").textContent);
    this.match = null;
    this.countdown = null;
    this.reconnects = 0;
    this.connectedOnce = false;
    // Friend-room telemetry: the socket opens before the room info says what kind of room
    // this is, so the first connection is reported when the room info arrives (once per
    // page: a reload is a new page and a new connection, never a new game).
    this.connectReported = false;
    if (!this.root) return;
    const on = (sel, handler) => $(this.root, sel)?.addEventListener("click", handler);
    on("[data-room-start]", () => client.room("start"));
    on("[data-room-resign]", () => client.room("resign"));
    on("[data-room-leave]", () => client.room("leave"));
    on("[data-room-leave-out]", () => client.room("leave"));
    on("[data-room-invite-again]", () => this.inviteAgain("invite_again"));
    on("[data-copy-invite]", () => this.copy());
    // Teams before the start (the creator): pick a seat, then the seat of the other team it
    // is exchanged with; the same button again, or Escape, puts the pick down.
    this.picked = null;
    $(this.root, "[data-room-seats]")?.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.dataset.swapPick !== undefined) {
        const seat = Number(button.dataset.swapPick);
        this.pick(this.picked === seat ? null : seat);
      } else if (button.dataset.swapTo !== undefined) {
        const seats = [this.picked, Number(button.dataset.swapTo)];
        this.client.room("swap", { seats });
        this.pick(null, seats[0]);
      }
    });
    this.root.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.picked !== null) this.pick(null, this.picked);
    });
    // The result screens' own "invite again" button does the same, then shows the new URL.
    for (const button of document.querySelectorAll("[data-invite-again]")) {
      button.addEventListener("click", () => this.inviteAgain("result"));
    }
  }

  /** A new invitation URL for the same table (the old one stops working). */
  inviteAgain(where) {
    telemetry.roomCreated(where);
    this.client.room("invite");
    document.querySelector("[data-room-invite]")?.scrollIntoView({ block: "center" });
    document.querySelector("[data-invite-url]")?.focus();
  }

  connection(up) {
    const status = document.querySelector("[data-connection]");
    if (status) {
      status.textContent = up ? this.S.online : this.S.offline;
      status.classList.toggle("offline", !up);
    }
    if (up && this.connectedOnce) this.reconnects += 1;
    if (up) this.connectedOnce = true;
    // The first socket closed before it ever opened: in a friend room (the page config says
    // which mode before any socket does) that is a failed connection, reported once.
    if (!up && !this.connectedOnce && !this.connectReported && this.config.mode === "friend") {
      this.connectReported = true;
      telemetry.roomOutcome(this.config.seats?.length ? "connect" : "spectate", false);
    }
    this.reportConnect();
  }

  /** Once connected and the room is known: a player's connection, or a spectator's. */
  reportConnect() {
    const match = this.match;
    if (this.connectReported || !this.connectedOnce || !match || match.mode !== "friend") return;
    this.connectReported = true;
    const player = match.seats.some((s) => s.yours);
    telemetry.roomOutcome(player ? "connect" : "spectate", true);
    // How often the socket came back, reported when the page goes, in its last batch.
    telemetry.beforeLeaving(() => telemetry.roomReconnects(this.reconnects));
  }

  seatName(index) {
    return cap(seatName(this.S.colours, this.match, index));
  }

  /** Pick a seat to move (null: none), redraw, and keep the keyboard where it was going:
   * on the first seat it may go to, or back on the picked seat's own button. */
  pick(seat, back = null) {
    this.picked = seat;
    if (!this.match) return;
    this.update(this.match);
    const list = $(this.root, "[data-room-seats]");
    const target = seat !== null ? list.querySelector("[data-swap-to]") : list.querySelector(`[data-swap-pick="${back}"]`);
    target?.focus();
  }

  update(match) {
    this.match = match;
    this.reportConnect();
    if (!this.root || !match) return;
    const S = this.S;
    const list = $(this.root, "[data-room-seats]");
    // The teams as the room says now (the creator may have moved seats since the page loaded).
    const groups = match.groups ?? this.config.groups ?? [];
    const yours = match.seats.filter((s) => s.yours);
    const friend = match.mode === "friend";
    const owner = yours.some((s) => s.owner);
    const arranging = friend && owner && match.status === "waiting" && groups.length > 1 && Boolean(S.swapPick);
    if (!arranging || groupOf(groups, this.picked) < 0) this.picked = null;
    const targets = this.picked === null ? [] : swapTargets(groups, this.picked);
    // A redraw replaces the buttons: the one that had the keyboard gets it back.
    const focused = document.activeElement;
    const refocus = list.contains(focused)
      ? (focused.dataset.swapPick !== undefined ? `[data-swap-pick="${focused.dataset.swapPick}"]`
        : focused.dataset.swapTo !== undefined ? `[data-swap-to="${focused.dataset.swapTo}"]` : null)
      : null;
    const items = match.seats.map((seat) => {
      const li = document.createElement("li");
      li.dataset.seat = seat.index;
      li.dataset.kind = seat.kind;
      const chip = document.createElement("span");
      chip.className = `seat-chip seat-${seat.colour}`;
      const who = seat.kind === "cpu" ? S.cpu : seat.taken ? S.player : S.empty;
      const parts = [who];
      if (seat.yours && match.mode !== "hotseat") parts.push(S.you);
      if (seat.owner) parts.push(S.owner);
      if (seat.kind !== "cpu" && seat.taken && match.mode === "friend") parts.push(seat.connected ? S.here : S.away);
      li.append(chip, `${this.seatName(seat.index)}: ${parts.join(" · ")}`);
      if (arranging) li.append(" ", this.swapButton(seat.index, targets));
      return li;
    });
    if (groups.length && this.groupLabel) {
      // Teams: each group's name, then its seats.
      list.replaceChildren(...groups.map((seats, i) => {
        const li = document.createElement("li");
        li.className = "seat-group";
        li.dataset.group = i;
        const inner = document.createElement("ul");
        inner.append(...seats.map((index) => items[index]).filter(Boolean));
        li.append(this.groupLabel(i), inner);
        return li;
      }));
    } else list.replaceChildren(...items);
    if (refocus) list.querySelector(refocus)?.focus();
    const hint = $(this.root, "[data-room-arrange]");
    if (hint) {
      hint.hidden = !arranging;
      hint.textContent = !arranging ? ""
        : this.picked === null ? S.swapHelp : fmt(S.swapChoose, { seat: this.seatName(this.picked) });
    }
    const playing = match.status === "playing";
    $(this.root, "[data-room-spectator]").hidden = yours.length > 0;
    const invite = $(this.root, "[data-room-invite]");
    invite.hidden = !(friend && match.invite_code);
    if (match.invite_code) {
      $(this.root, "[data-invite-url]").value = new URL(`/play/invite/${match.invite_code}/`, location.origin).href;
    }
    $(this.root, "[data-room-start]").hidden = !(friend && owner && match.status === "waiting");
    const players = match.seats.length;
    // A game whose leavers are out (match.on_leave "out") offers one way to go at any size.
    const out = match.on_leave === "out";
    const seated = friend && playing && yours.length > 0;
    // Resigning ends the match when nobody else plays on: two seats, or only CPUs besides
    // you (on a stoppable screen, every vs-CPU game and solo practice; rooms.resign).
    const alone = this.stoppable && playing && yours.length === 1 && match.seats.every((s) => s.yours || s.kind === "cpu");
    $(this.root, "[data-room-resign]").hidden = !(!out && ((seated && players === 2) || alone));
    $(this.root, "[data-room-leave]").hidden = !(seated && !out && players > 2);
    const leaveOut = $(this.root, "[data-room-leave-out]");
    if (leaveOut) leaveOut.hidden = !(seated && out);
    $(this.root, "[data-room-invite-again]").hidden = !(friend && yours.length);
    $(this.root, "[data-room-next]").hidden = !match.next_match;
    this.cpuNotice(match);
  }

  /** A seat's button while the creator arranges the teams: pick it (or put the pick down),
   * or, while another seat is picked, exchange it with that one (seats of the other team). */
  swapButton(index, targets) {
    const S = this.S;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    if (this.picked !== null && targets.includes(index)) {
      button.dataset.swapTo = index;
      button.textContent = fmt(S.swapTo, { seat: this.seatName(this.picked), other: this.seatName(index) });
    } else {
      button.dataset.swapPick = index;
      button.setAttribute("aria-pressed", String(this.picked === index));
      button.textContent = this.picked === index ? S.swapCancel : fmt(S.swapPick, { seat: this.seatName(index) });
      button.disabled = this.picked !== null && this.picked !== index;
    }
    return button;
  }

  cpuNotice(match) {
    const notice = document.querySelector("[data-room-cpu-notice]");
    clearInterval(this.countdown);
    if (!notice) return;
    const away = match.mode === "friend" && match.status === "playing"
      ? match.seats.filter((s) => s.kind !== "cpu" && s.taken && !s.connected) : [];
    // Seats this page has seen due to act while away: once the turn has moved on without
    // them (they could not play it), the CPU played it, and until they come back the notice
    // says so between their turns too (a turn-based game counts only their own turns, so the
    // frames between carry no countdown: the notice went and came back with every turn).
    this.awayTurns ??= new Set();
    for (const index of this.awayTurns) if (!away.some((s) => s.index === index)) this.awayTurns.delete(index);
    // The away seat to act, or one whose takeover is counting down between its turns (a
    // timed game: karuta's readings come and go, the 45 s run from the drop).
    const due = away.find((s) => match.to_act.includes(s.index) || Number.isFinite(s.cpu_in_ms));
    const playedFor = due ? null : away.find((s) => this.awayTurns.has(s.index));
    const seat = due ?? playedFor;
    if (!seat) {
      this.idleNotice(notice, match);
      return;
    }
    notice.hidden = false;
    const [soon, now] = match.on_leave === "out" ? [this.S.outSoon, this.S.outNow] : [this.S.cpuSoon, this.S.cpuNow];
    const playing = () => { notice.textContent = fmt(now, { seat: this.seatName(seat.index) }); };
    if (playedFor) { playing(); return; }
    this.awayTurns.add(seat.index);
    // The seat's own countdown (the 45 s rule: `cpu_at`, on the server's clock, as the
    // marks by the seat count), not the server's next move: in karuta that is the judge
    // closing each reading, which made the countdown start again every poem.
    const clock = () => this.client.serverNow();
    const at = Number.isFinite(seat.cpu_at) ? seat.cpu_at
      : Number.isFinite(match.due_in_ms) ? clock() + match.due_in_ms : null;
    if (at === null) {
      playing();
      return;
    }
    const tick = () => {
      const left = secondsLeft(at, clock());
      if (left > 0) notice.textContent = fmt(soon, { seat: this.seatName(seat.index), s: left });
      else playing();
    };
    tick();
    this.countdown = setInterval(tick, 1000);
  }

  /** A rated game's idle turn: a present person to act, counted down to the moment the CPU
   * plays it (away.js `idleSeat`); hidden otherwise. */
  idleNotice(notice, match) {
    const seat = idleSeat(match);
    notice.hidden = !seat;
    if (!seat) return;
    const tick = () => {
      const left = secondsLeft(seat.cpu_at, this.client.serverNow());
      notice.textContent = fmt(this.S.idleSoon, { seat: this.seatName(seat.index), s: left });
    };
    tick();
    this.countdown = setInterval(tick, 1000);
  }

  async copy() {
    const input = $(this.root, "[data-invite-url]");
    const status = $(this.root, "[data-copy-status]");
    try {
      await navigator.clipboard.writeText(input.value);
      status.textContent = this.S.copied;
    } catch {
      input.select();
      status.textContent = this.S.copyFailed;
    }
  }
}
