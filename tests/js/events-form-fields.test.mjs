// node --test: which event form fields apply (static/js/events/form-fields.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { fieldsShown } from "../../static/js/events/form-fields.js";

test("a knockout of karuta: pace, memorisation and the break; no rounds, no length", () => {
  assert.deepEqual(fieldsShown("knockout", "karuta-competitive"), {
    rounds_total: false, minutes: false, break_seconds: true, pace: true, memorise_seconds: true,
  });
});

test("an arena of Bozu: its length only (no pace, no break, no rounds)", () => {
  assert.deepEqual(fieldsShown("arena", "bozu-4"), {
    rounds_total: false, minutes: true, break_seconds: false, pace: false, memorise_seconds: false,
  });
});

test("Swiss rounds of genpei: rounds, break and the reading's pace", () => {
  const shown = fieldsShown("swiss", "karuta-genpei-2v2");
  assert.ok(shown.rounds_total && shown.break_seconds && shown.pace && !shown.minutes);
});
