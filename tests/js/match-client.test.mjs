// node --test: the match client's clock pings and timed-state parts, over a fake socket.
import assert from "node:assert/strict";
import { test } from "node:test";

class FakeSocket {
  static OPEN = 1;
  static last = null;
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    this.listeners = {};
    FakeSocket.last = this;
  }
  addEventListener(name, fn) { this.listeners[name] = fn; }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  fire(name, event = {}) { this.listeners[name]?.(event); }
  pings() { return this.sent.filter((m) => m.type === "ping"); }
}

globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "example.test" };
globalThis.document = { documentElement: { lang: "en" } };

const { MatchClient } = await import("../../static/js/match-client.js");

function connected() {
  const frames = [];
  const client = new MatchClient({ ws: "/play/x/ws/" }, { onState: (f) => frames.push(f) });
  let local = 1000;
  client.clock.now = () => local;
  client.connect();
  const socket = FakeSocket.last;
  socket.fire("open");
  const advance = (ms) => { local += ms; };
  const receive = (frame) => client.receive(JSON.stringify(frame));
  receive({ type: "welcome", seats: [0] });
  return { client, socket, frames, advance, receive };
}

test("a burst of pings at connect, each when the last pong is in; the offset from their pongs", () => {
  const { client, socket, advance, receive } = connected();
  try {
    assert.equal(socket.pings().length, 1);
    const OFFSET = 5000;
    for (let answered = 0; answered < socket.pings().length; answered += 1) {
      const ping = socket.pings().at(-1);
      advance(10 + answered); // the server answers halfway
      receive({ type: "pong", t: ping.t, seq: 0, now: (ping.t + client.clock.now()) / 2 + OFFSET });
    }
    assert.equal(socket.pings().length, 8, "eight pings, then the heartbeat's pace");
    assert.equal(client.offset, OFFSET);
    assert.equal(client.clock.delay, 10);
    // Each later ping echoes the last pong's time and how long it was held.
    const [first, second] = socket.pings();
    assert.equal(second.echo, first.t + 5 + OFFSET);
    assert.equal(second.held, 0);
    advance(250);
    client.ping();
    assert.equal(socket.pings().at(-1).held, 250);
    assert.equal(client.serverNow(), client.clock.now() + OFFSET);
  } finally {
    client.close();
  }
});

test("pongs without the server's time leave the clock alone (an older server)", () => {
  const { client, socket, receive } = connected();
  try {
    receive({ type: "pong", t: socket.pings()[0].t, seq: 0 });
    assert.equal(client.clock.ready, false);
    assert.equal(client.offset, 0);
  } finally {
    client.close();
  }
});

test("a timed state grows by parts of one seq; an older part is dropped, a gap resyncs", () => {
  const { client, socket, frames, receive } = connected();
  try {
    const state = (seq, part, events = []) => ({ type: "state", seq, part, view: { part }, match: {}, events });
    receive({ ...state(3, 0), reset: true });
    receive(state(3, 2));
    receive(state(3, 1)); // late: stale
    receive(state(3, 2)); // the same part again: stale too
    assert.deepEqual(frames.map((f) => f.view.part), [0, 2]);
    assert.equal(client.view.part, 2);
    receive(state(4, 0, [{ seq: 4 }]));
    assert.equal(client.seq, 4);
    assert.equal(client.part, 0);
    receive(state(4, 1, [{ seq: 4 }])); // the same events again with a grown view: no gap
    assert.deepEqual(frames.map((f) => f.view.part), [0, 2, 0, 1]);
    receive(state(7, 0, [{ seq: 7 }])); // 5 and 6 missing
    assert.equal(client.seq, 4);
    assert.equal(socket.sent.at(-1).type, "resync");
  } finally {
    client.close();
  }
});

test("frames of the same seq without parts still pass (a shared device's reveal)", () => {
  const { client, frames, receive } = connected();
  try {
    receive({ type: "state", seq: 2, view: null, handoff: { seat: 1 }, match: {}, events: [], reset: true });
    receive({ type: "state", seq: 2, view: { hand: [1] }, match: {}, events: [] });
    assert.equal(frames.length, 2);
    assert.deepEqual(client.view, { hand: [1] });
  } finally {
    client.close();
  }
});

test("hello asks for acks on state frames; an ack there clears the pending act after the state", () => {
  const acks = [];
  const frames = [];
  const client = new MatchClient(
    { ws: "/play/x/ws/" },
    { onState: (f) => frames.push(f), onAck: (a) => acks.push([a, frames.length]) },
  );
  client.connect();
  const socket = FakeSocket.last;
  socket.fire("open");
  const receive = (frame) => client.receive(JSON.stringify(frame));
  try {
    assert.equal(socket.sent[0].type, "hello");
    assert.equal(socket.sent[0].ack_in_state, true);
    receive({ type: "welcome", seats: [0] });
    receive({ type: "state", seq: 3, view: {}, match: {}, events: [], reset: true });
    const id = client.act({ type: "draw" });
    assert.ok(client.pending.has(id));
    const ack = { action_id: id, seq: 4, duplicate: false };
    receive({ type: "state", seq: 4, view: {}, match: {}, events: [{ seq: 4 }], ack });
    assert.equal(client.seq, 4);
    assert.ok(!client.pending.has(id));
    assert.deepEqual(acks, [[{ type: "ack", ...ack }, 2]], "after the state it acknowledges");
    // An older server's separate ack frame still works.
    const other = client.act({ type: "draw" });
    receive({ type: "ack", action_id: other, seq: 5, duplicate: false });
    assert.ok(!client.pending.has(other));
  } finally {
    client.close();
  }
});
