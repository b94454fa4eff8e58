// Work that may wait until the screen has changed. Pure (Node-tested with a fake frame and task).

/**
 * Jobs the next card does not wait for (scheduling, storing, the grid's cell), run in order
 * once the frame that shows it is drawn; `flush` runs what is left at once (a hidden page
 * draws no frame: the drill flushes when the page is hidden, so closing it loses nothing).
 */
export function afterFrame({ frame = requestAnimationFrame, task = (fn) => setTimeout(fn, 0) } = {}) {
  const jobs = [];
  let pending = false;
  const flush = () => {
    pending = false;
    for (const job of jobs.splice(0)) job();
  };
  return {
    add(job) {
      jobs.push(job);
      if (!pending) {
        pending = true;
        frame(() => task(() => pending && flush()));
      }
    },
    flush,
  };
}
