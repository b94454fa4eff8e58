// The clock's duties (controller.tick): every animation frame while the game goes on, since
// kana appear as they are heard and the voice samples its clock each frame, and four times a
// second besides, for a background tab whose frames stop (a pass, the end of memorisation).
// Once the game is over nothing moves on the clock: both stop, so a page left open on its
// result no longer redraws 60 times a second. Pure given its timers (tests/js/karuta-frame-loop.test.mjs).

export const BACKGROUND_MS = 250;

export function runClock({
  tick, over,
  frame = (fn) => requestAnimationFrame(fn),
  every = (fn, ms) => setInterval(fn, ms),
  cancel = (id) => clearInterval(id),
}) {
  let running = true;
  const step = (fromFrame) => {
    if (!running) return;
    tick();
    if (over()) {
      running = false;
      cancel(timer);
    } else if (fromFrame) frame(() => step(true)); // one chain of frames: the timer's steps start none
  };
  const timer = every(() => step(false), BACKGROUND_MS);
  frame(() => step(true));
  return { running: () => running };
}
