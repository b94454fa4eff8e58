// Browser client for the match WebSocket (docs/protocol.md); it speaks the version the
// page's config names (`protocol`).
//
//   import { MatchClient } from "/static/js/match-client.js";
//   const config = JSON.parse(document.getElementById("match-config").textContent);
//   const client = new MatchClient(config, {
//     onState: (frame) => draw(frame.view, frame.match, frame.events),
//     onError: (error) => announce(error.message),
//   });
//   client.connect();
//   client.act({ type: "draw" });
//
// It reconnects with backoff, resumes from the last seq it saw, keeps a heartbeat,
// and resends unacknowledged actions with their original ids (applied once): after a
// reconnect, after a retryable refusal ("unavailable", retry_ms) and when the rate limit
// names them as dropped. `lagging` is true while the server says the table may lag.
//
// The server's clock: every pong carries the server's time (`now`); the client keeps an
// NTP-style estimate (clock-sync.js) from a burst of pings at each connect and then from
// the heartbeat, every `syncEvery(ms)` while a timed game needs it (karuta: during a
// reading). Each ping echoes the last pong's `now` and how long it was held, so the server
// measures the round trip too. `serverNow()` is the local clock corrected to the server's.
//
// A timed game's state may grow while its seq stands still (a reading's kana released
// on time): such frames carry `part` (0, 1, 2…); a lower part of the current seq is stale.

import { ClockSync } from "./clock-sync.js"; // static/js/ (the same /static/js/ URL)

const PING_MS = 15000;
const PONG_TIMEOUT_MS = 10000;
const MAX_BACKOFF_MS = 15000;
const BURST = 8; // pings at each connect, each sent when the previous pong is in

function newActionId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class MatchClient {
  constructor(config, handlers = {}) {
    this.config = config;
    this.handlers = handlers;
    this.seq = null; // last seq seen
    this.view = null;
    this.viewSeat = null;
    this.handoff = null;
    this.match = null;
    this.seats = [];
    this.pending = new Map(); // action_id -> act frame, until acked or refused
    this.socket = null;
    this.attempt = 0;
    this.closed = false;
    this.pingTimer = null;
    this.pongTimer = null;
    this.lagging = false;
    this.part = 0; // the part of the current seq's state (timed games)
    this.clock = new ClockSync();
    this.burstLeft = 0;
    this.syncMs = PING_MS;
  }

  /** The server's epoch ms now, on the corrected clock. */
  serverNow() { return this.clock.serverNow(); }

  /** Server time minus local time (ms), and its error bound. */
  get offset() { return this.clock.offset; }

  /** Ping every `ms` (a timed game in play), or back to the heartbeat's pace (null). */
  syncEvery(ms) {
    const wanted = ms ?? PING_MS;
    if (wanted === this.syncMs) return;
    this.syncMs = wanted;
    if (this.pingTimer !== null) this.startHeartbeat();
  }

  // Send pending actions again after `ms` (same ids: the server applies each once).
  resendLater(ids, ms) {
    setTimeout(() => {
      for (const id of ids) {
        const frame = this.pending.get(id);
        if (frame) this.sendRaw(frame);
      }
    }, ms);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.config.ws}`;
  }

  connect() {
    this.closed = false;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      // ack_in_state: an act's ack comes on its own state frame (one frame, not two).
      const hello = {
        // The protocol version is the server's (the page's config): one number, one place.
        type: "hello", v: this.config.protocol, lang: document.documentElement.lang, ack_in_state: true,
      };
      if (this.seq !== null) hello.since = this.seq;
      this.sendRaw(hello);
      this.startHeartbeat();
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => this.dropped(socket));
    socket.addEventListener("error", () => socket.close());
  }

  close() {
    this.closed = true;
    this.stopHeartbeat();
    if (this.socket) this.socket.close();
  }

  dropped(socket) {
    if (socket !== this.socket) return;
    this.stopHeartbeat();
    this.emit("onConnection", false);
    if (this.closed) return;
    // Exponential backoff with jitter, so a restarted server is not stormed.
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt += 1;
    setTimeout(() => this.connect(), delay);
  }

  startHeartbeat() {
    this.stopHeartbeat();
    this.pingTimer = setInterval(() => this.ping(), this.syncMs);
  }

  stopHeartbeat() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = null;
    this.pongTimer = null;
  }

  // `t` is the local send time: the pong echoes it back, so no ping needs remembering.
  ping() {
    const t1 = this.clock.now();
    if (!this.sendRaw({ type: "ping", t: t1, ...this.clock.pingFields(t1) })) return;
    // The first unanswered ping starts the watch: no pong within the timeout, reconnect.
    if (this.pongTimer === null) {
      this.pongTimer = setTimeout(() => this.socket && this.socket.close(), PONG_TIMEOUT_MS);
    }
  }

  pong(frame) {
    clearTimeout(this.pongTimer);
    this.pongTimer = null;
    if (typeof frame.now === "number" && typeof frame.t === "number") this.clock.add(frame.t, frame.now);
    if (this.burstLeft > 0) {
      this.burstLeft -= 1;
      this.ping();
    }
  }

  sendRaw(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // Play an action; returns its id. Resent after a reconnect until acknowledged.
  // checkSeq: false for real-time games (karuta), whose seats act at once: an action that
  // the engine can judge on any state must not be refused as "stale" because another
  // seat moved first.
  act(action, { seat = null, checkSeq = true } = {}) {
    const frame = { type: "act", action, action_id: newActionId() };
    if (seat !== null) frame.seat = seat;
    if (checkSeq && this.seq !== null) frame.seq = this.seq;
    this.pending.set(frame.action_id, frame);
    this.sendRaw(frame);
    return frame.action_id;
  }

  room(type, fields = {}) {
    return this.sendRaw({ type, ...fields });
  }

  // Shared device, hidden hands: "I am this seat, show me" after a state frame's handoff.
  reveal(seat) {
    return this.sendRaw({ type: "reveal", seat });
  }

  resync() {
    return this.sendRaw({ type: "resync", since: this.seq });
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    switch (frame.type) {
      case "welcome":
        this.seats = frame.seats;
        this.emit("onConnection", true, frame);
        for (const pending of this.pending.values()) this.sendRaw(pending);
        this.burstLeft = BURST - 1;
        this.ping();
        break;
      case "state":
        this.receiveState(frame);
        if (frame.ack) this.acked(frame.ack); // after the state it acknowledges
        break;
      case "room":
        this.match = frame.match;
        this.emit("onRoom", frame);
        break;
      case "ack":
        this.acked(frame);
        break;
      case "pong":
        this.pong(frame);
        if (this.seq !== null && frame.seq > this.seq) this.resync();
        break;
      case "lag":
        // The server's broadcast link is down: moves still count, other seats' moves may
        // arrive late (a fresh state follows when it is back).
        this.lagging = Boolean(frame.lagging);
        this.emit("onLag", this.lagging);
        break;
      case "error":
        if (frame.code === "rate_limited" && Array.isArray(frame.dropped)) {
          this.resendLater(frame.dropped, 1000);
        } else if (frame.code === "unavailable" && frame.ref) {
          this.resendLater([frame.ref], frame.retry_ms ?? 1000);
        } else if (frame.ref) {
          this.pending.delete(frame.ref);
        }
        if (frame.view !== undefined && frame.seq >= (this.seq ?? 0)) this.view = frame.view;
        this.emit("onError", frame);
        break;
      default:
        break; // newer server, unknown frame: ignore
    }
  }

  receiveState(frame) {
    const part = frame.part ?? 0;
    const again = !frame.reset && frame.seq === this.seq;
    if (again && part > 0 && part <= this.part) return; // an older part of this state
    if (!again && !frame.reset && this.seq !== null && frame.events.length && frame.events[0].seq !== this.seq + 1) {
      this.resync(); // a gap: ask again rather than draw a wrong table
      return;
    }
    this.part = part;
    this.seq = frame.seq;
    this.view = frame.view;
    this.viewSeat = frame.view_seat;
    // A shared device that must be passed to another player first: no view until reveal().
    this.handoff = frame.handoff ?? null;
    this.match = frame.match;
    this.emit("onState", frame);
  }

  acked(ack) {
    this.pending.delete(ack.action_id);
    this.emit("onAck", { type: "ack", ...ack });
  }

  emit(name, ...args) {
    const handler = this.handlers[name];
    if (typeof handler === "function") handler(...args);
  }
}
