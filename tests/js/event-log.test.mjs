// node --test: the event log keeps the last lines, announces a frame's lines together, and
// empties completely for the blind screen.
import assert from "node:assert/strict";
import { test } from "node:test";

import { EventLog, logLines } from "../../static/js/event-log.js";

// Just the DOM a list needs: append, children, firstElementChild.remove, replaceChildren.
function fakeList() {
  const list = {
    items: [],
    ownerDocument: { createElement: () => ({ textContent: "", remove() { list.items.splice(list.items.indexOf(this), 1); } }) },
    append(li) { this.items.push(li); },
    get children() { return this.items; },
    get firstElementChild() { return this.items[0]; },
    replaceChildren() { this.items = []; },
  };
  return list;
}
const texts = (list) => list.items.map((li) => li.textContent);

test("lines of a frame are shown and announced together; only the last few stay", () => {
  const list = fakeList();
  const announcer = { textContent: "" };
  const log = new EventLog(list, announcer, { keep: 3 });
  log.add([{ texts: ["Red drew."] }, { texts: ["Red keeps it.", "Blue's turn."] }]);
  assert.deepEqual(texts(list), ["Red drew.", "Red keeps it.", "Blue's turn."]);
  assert.equal(announcer.textContent, "Red drew. Red keeps it. Blue's turn.");
  log.add([{ texts: ["Blue drew."] }]);
  assert.deepEqual(texts(list), ["Red keeps it.", "Blue's turn.", "Blue drew."]);
  assert.equal(announcer.textContent, "Blue drew.");
  log.add([{ events: [] }]);
  assert.equal(announcer.textContent, "Blue drew.", "a frame without words changes nothing");
});

test("a reset or the blind screen leaves nothing behind", () => {
  const list = fakeList();
  const announcer = { textContent: "" };
  const log = new EventLog(list, announcer);
  log.add([{ texts: ["Your hand: 3 cards."] }]);
  log.add([{ texts: ["Green's turn."] }], true);
  assert.deepEqual(texts(list), ["Green's turn."]);
  log.clear();
  assert.deepEqual(texts(list), []);
  assert.equal(announcer.textContent, "");
  assert.deepEqual(logLines(undefined), []);
});
