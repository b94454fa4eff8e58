// The event page: short polling of the live fragment (bracket, boards, standings). A poll
// names the version it shows; an unchanged event answers 204 with no body.
import { pollDelay } from "./poll.js";

const root = document.getElementById("event");
const live = document.getElementById("event-live");
const news = document.getElementById("event-news");
const base = Number(root.dataset.pollMs) || 3000;
let version = root.dataset.version;
let failures = 0;

async function poll() {
  try {
    const response = await fetch(`${root.dataset.live}?v=${encodeURIComponent(version)}`, {
      credentials: "same-origin",
      cache: "no-store",
    });
    if (response.status === 200) {
      const html = await response.text();
      const focused = document.activeElement?.id;
      live.innerHTML = html;
      version = response.headers.get("X-Event-Version") || version;
      if (focused) document.getElementById(focused)?.focus();
      news.textContent = news.dataset.updated;
    }
    failures = response.ok ? 0 : failures + 1;
  } catch {
    failures += 1;
  }
  setTimeout(poll, pollDelay(base, failures, document.hidden));
}

setTimeout(poll, base);
