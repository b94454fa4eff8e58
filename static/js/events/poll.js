// When to ask the event for news again (pure: no DOM, no clock). Every `baseMs` while
// answers come; after failures, doubling up to a minute; a hidden tab asks four times less.
export function pollDelay(baseMs, failures, hidden) {
  const backoff = Math.min(60000, baseMs * 2 ** Math.min(failures, 5));
  return hidden ? Math.max(backoff, baseMs * 4) : backoff;
}
