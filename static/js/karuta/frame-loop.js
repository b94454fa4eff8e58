// The clock's duties (controller.tick), run only when something on the page is due to
// change: the tick after a wait of next() ms (the next kana, touch, close or countdown
// second: controller.nextMs), drawn in the animation frame that follows the wait, so a
// kana still appears in the first frame at or after its time. No frame is asked for while
// nothing changes: an idle page (memorising, between readings) costs a timer a second, not
// 60 frames. A hidden tab has no frames: there the wait's timer ticks itself. A frame that
// does not come within BACKGROUND_MS is not waited for either. Once the game is over
// nothing moves on the clock: it stops. Pure given its timers
// (tests/js/karuta-frame-loop.test.mjs).

export const BACKGROUND_MS = 250;
/** The longest wait between two ticks: what no due time covers (the clock estimate moving,
 * the voice's latency settling) is seen within it. */
export const MAX_WAIT_MS = 1000;

export function runClock({
  tick, over, next,
  frame = (fn) => requestAnimationFrame(fn),
  cancelFrame = (id) => cancelAnimationFrame(id),
  wait = (fn, ms) => setTimeout(fn, ms),
  cancelWait = (id) => clearTimeout(id),
  hidden = () => document.hidden,
}) {
  let running = true;
  let timer = null; // the wait until the next due time
  let raf = null; // the frame asked for after it
  let backup = null; // the same tick, if that frame does not come
  const clear = () => {
    if (timer !== null) cancelWait(timer);
    if (backup !== null) cancelWait(backup);
    if (raf !== null) cancelFrame(raf);
    timer = backup = raf = null;
  };
  const step = () => {
    clear();
    if (!running) return;
    tick();
    schedule();
  };
  /** Tick in the next frame (or from a timer, in a hidden tab). */
  const soon = () => {
    clear();
    if (!running) return;
    if (hidden()) { timer = wait(step, 0); return; }
    raf = frame(step);
    backup = wait(step, BACKGROUND_MS);
  };
  /** Wait until the next due time (after a tick, or when new times came in). */
  const schedule = () => {
    clear();
    if (!running) return;
    if (over()) { running = false; return; }
    let ms = Math.ceil(next());
    if (!(ms < MAX_WAIT_MS)) ms = MAX_WAIT_MS; // also Infinity (nothing due) and NaN
    ms = Math.max(0, ms);
    timer = wait(() => { timer = null; soon(); }, ms);
  };
  soon();
  return { running: () => running, wake: schedule, soon };
}
