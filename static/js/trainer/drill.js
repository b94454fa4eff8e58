// A running drill: shows each question, times the answer from the moment it is shown,
// grades it and shows the next question at once; the poem's record is scheduled, stored and
// drawn in the grid once that frame is out (issue 28: < 16 ms of script per answer).
import * as telemetry from "../telemetry.js";
import { fmt } from "../text.js";
import { afterFrame } from "./after-frame.js";
import { AGAIN } from "./grade.js";
import { review } from "./schedule.js";
import { DRILL_CODES, judge, playOrder, question } from "./session.js";
import { drawQuestion } from "./view.js";

const $ = (id) => document.getElementById(id);
const seconds = (ms) => (ms / 1000).toFixed(1);
const HEARD = new Set(["choose", "tori-type"]); // the kimariji → card drills read it aloud
const FEEDBACK_MS = 900; // a wrong answer stays on screen this long with the right card shown

/**
 * Run one drill. `app` holds { byN, records, store, msg, rand, voice, voiceOn(), onRecord(record),
 * onEnd() }.
 * Returns { answer(input), stop() } for the keyboard and buttons.
 */
export function startDrill(app, { drill, cards, clockMs = null }) {
  const order = playOrder(cards, drill, app.rand);
  const reviewed = new Set(); // 札流し goes round again: only a poem's first answer is scheduled
  const results = [];
  const startedAt = performance.now();
  let index = -1;
  let q = null;
  let shownAt = 0;
  let timer = null;
  let done = false;
  let wait = null;
  const later = afterFrame();
  const onHidden = () => document.hidden && later.flush();
  document.addEventListener("visibilitychange", onHidden);

  if (HEARD.has(drill) && app.voice?.available && app.voiceOn()) app.voice.prepare();
  $("summary").hidden = true;
  $("drill").hidden = false;
  $("drill-feedback").textContent = "";
  telemetry.track("drill_start", { moves: telemetry.buckets.moves(cards.length) }); // 札流し: its set

  function next() {
    index += 1;
    if (index >= order.length) return finish();
    q = question(order[index], drill, app.byN, { rand: app.rand });
    $("drill-progress").textContent = fmt(app.msg.progress, { i: index + 1, n: clockMs ? "∞" : order.length });
    drawQuestion(q, app.byN, app.msg);
    shownAt = performance.now();
    const { n } = q;
    const upcoming = order[index + 1];
    if (HEARD.has(drill)) later.add(() => say(n, upcoming));
  }

  // The kimariji is heard once its card is drawn, and the next card's clips are fetched
  // meanwhile (muted: nothing is fetched); for tests, which clips played.
  function say(n, upcoming) {
    if (done || !app.voice?.available || !app.voiceOn()) return;
    app.voice.play(n).then((urls) => {
      if (urls.length) document.dispatchEvent(new CustomEvent("trainer:voiced", { detail: { n, urls } }));
    });
    if (upcoming != null) app.voice.preload(upcoming);
  }

  function tick() {
    const left = clockMs - (performance.now() - startedAt);
    if (left <= 0) return finish();
    $("drill-clock-left").textContent = fmt(app.msg.timeLeft, { s: Math.ceil(left / 1000) });
  }

  function answer(input) {
    if (done || wait || !q) return;
    const t0 = performance.now();
    const ms = t0 - shownAt;
    const verdict = judge(q, input, ms, app.byN);
    const now = Date.now();
    results.push({ n: q.n, correct: verdict.correct, ms });
    if (!reviewed.has(q.n)) {
      reviewed.add(q.n);
      const { n } = q;
      later.add(() => {
        const record = review(app.records.get(n), { rating: verdict.rating, ms, now, chosen: verdict.chosen });
        app.records.set(n, record);
        app.onRecord(record);
        app.store.save(record, [now, n, verdict.rating, Math.round(ms), DRILL_CODES[drill]]).catch(() => {});
      });
    }
    const poem = app.byN.get(q.n);
    $("drill-feedback").textContent = verdict.correct
      ? `${fmt(app.msg.right, { s: seconds(ms) })} (${app.msg.rating[verdict.rating]})`
      : fmt(app.msg.wrong, { card: `${poem.kimariji} — ${poem.tori}` });
    if (verdict.rating === AGAIN) {
      for (const b of document.querySelectorAll("#drill-options button")) if (Number(b.dataset.poem) === q.n) b.classList.add("is-answer");
      wait = setTimeout(() => { wait = null; next(); }, FEEDBACK_MS);
    } else {
      next();
    }
    // For bench/bench_trainer.py: the handler's script time, and until the next frame starts.
    const scriptMs = performance.now() - t0;
    requestAnimationFrame(() => {
      const detail = { scriptMs, frameMs: performance.now() - t0, correct: verdict.correct };
      document.dispatchEvent(new CustomEvent("trainer:answered", { detail }));
    });
  }

  function finish() {
    if (done) return;
    done = true;
    later.flush(); // the summary and the grid count every answer
    app.voice?.stop();
    document.removeEventListener("visibilitychange", onHidden);
    clearInterval(timer);
    clearTimeout(wait);
    $("drill").hidden = true;
    const right = results.filter((r) => r.correct);
    const avg = right.length ? right.reduce((s, r) => s + r.ms, 0) / right.length : 0;
    $("summary-text").textContent = fmt(app.msg.summary, { right: right.length, n: results.length, s: seconds(avg) });
    $("summary").hidden = false;
    $("summary").focus();
    telemetry.track("drill_end", {
      moves: telemetry.buckets.moves(results.length),
      duration: telemetry.buckets.duration(performance.now() - startedAt),
    });
    app.onEnd(results);
  }

  if (clockMs) {
    timer = setInterval(tick, 250);
    tick();
  } else {
    $("drill-clock-left").textContent = "";
  }
  next();
  // The drill lies below the menu (below the fold on a phone, and on a desktop once the
  // intro is in Japanese): bring it into view; drawQuestion gives the answers the focus.
  $("drill").scrollIntoView({ block: "start" });
  return { answer, stop: finish, get running() { return !done; } };
}
