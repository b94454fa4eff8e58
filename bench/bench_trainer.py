"""The kimariji trainer's speed goals (issue 28), in Chromium with CPU throttling ×4.

Prints, for a phone-class profile (Emulation.setCPUThrottlingRate 4, 390×844):
- time to interactive: navigation start → the page's "trainer-ready" mark (first visit and
  a visit with the service worker's cache), goal < 1 s;
- answer → next card: script time of the answer handler (grade, schedule, store the record,
  draw the next question) over a 40-card drill by keyboard, goal < 16 ms;
- a 10,000-review history: bytes IndexedDB holds for it (navigator.storage.estimate), goal
  < 5 MiB, and the time to read it back in the page, goal < 100 ms; then the page's time to
  interactive with that history stored.
No baseline exists for these (they are absolute goals); run on a quiet machine and give
`uptime` with the figures. A phone has a Japanese system font; a Linux machine without one
(Debian: `apt-get install fonts-ipafont-gothic`) makes Chromium look every kana up in other
fonts during the first layout (docs/front-end.md), so the bench says which font it found.

    PYTHONPATH=platform:. .venv/bin/python bench/bench_trainer.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
PY = sys.executable

from tests.support.server import AsgiServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
READY = "() => document.documentElement.dataset.trainerReady === '1'"
READY_MS = "() => performance.getEntriesByName('trainer-ready')[0].startTime"
# Where a first visit's time goes: the page and its modules arrive (navigation → the entry
# starts), the poems and sets are computed, IndexedDB opens and is read, the page is drawn;
# and, aside, when the head's script (open-early.js) started opening IndexedDB and when it
# was open (from navigation start; -1 without those marks).
PHASES = """() => {
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? -1;
  return [at('trainer-start'), at('trainer-data') - at('trainer-start'),
          at('trainer-store') - at('trainer-data'), at('trainer-ready') - at('trainer-store'),
          at('trainer-open'), at('trainer-opened')];
}"""

SEED_HISTORY = """async (count) => {
  const { openStore } = await import('/static/js/trainer/store.js');
  const { newRecord, review } = await import('/static/js/trainer/schedule.js');
  const store = await openStore();
  const records = new Map();
  const log = [];
  let now = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i += 1) {
    const n = (i * 37) % 100 + 1;
    const rating = 1 + (i % 4);
    const ms = 600 + (i * 131) % 4000;
    now += 3600 * 1000;
    const chosen = rating === 1 ? (n % 100) + 1 : null;
    records.set(n, review(records.get(n) ?? newRecord(n), { rating, ms, now, chosen }));
    log.push([now, n, rating, ms, i % 4]);
  }
  await store.replace(records, log);
  return log.length;
}"""

READ_HISTORY = """async () => {
  const { openStore } = await import('/static/js/trainer/store.js');
  const t0 = performance.now();
  const store = await openStore();
  const records = await store.load();
  const log = await store.loadLog();
  return { ms: performance.now() - t0, records: records.size, log: log.length };
}"""

CLEAR = """async () => {
  const { openStore } = await import('/static/js/trainer/store.js');
  await (await openStore()).clear();
}"""

IDB_BYTES = """async () => {
  const e = await navigator.storage.estimate();
  return e.usageDetails?.indexedDB ?? e.usage;
}"""


class Server(AsgiServer):
    """The tests' daphne launcher as production runs it (DEBUG off, collected and compressed
    static files with hashed names, served by WhiteNoise) on a throwaway SQLite database."""

    def __init__(self):
        super().__init__()
        self.var = ROOT / "var" / "bench" / "trainer"
        self.log_path = self.var / "daphne.log"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        for key in ("DATABASE_URL", "REDIS_URL", "CI"):
            env.pop(key, None)
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=f"sqlite:///{self.var / 'db.sqlite3'}",
            SECRET_KEY="bench-only-" + "x" * 50,
            ALLOWED_HOSTS="127.0.0.1",
            DEBUG="0",
            HTTPS="0",
            STATIC_ROOT=str(self.var / "static"),
            VAR_DIR=str(self.var),
            LOG_LEVEL="WARNING",
        )
        return env

    def start(self) -> None:
        shutil.rmtree(self.var, ignore_errors=True)
        self.var.mkdir(parents=True)
        for command in (["migrate"], ["collectstatic", "--noinput"]):
            subprocess.run(
                [PY, ROOT / "manage.py", *command, "-v", "0"], env=self.env(), check=True
            )
        super().start(timeout=30)


def throttled_page(browser, rate: float):
    context = browser.new_context(viewport=PHONE, locale="ja-JP")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return context, page


# Waits in the page with a promise on the page's own event: wait_for_function first compiles
# Playwright's injected script (~50 ms of the page's main thread at CPU x4 in a trace), and
# that ran after the load event, while IndexedDB was still opening: inside the time measured.
WAIT_READY = """() => new Promise((resolve, reject) => {
  if (document.documentElement.dataset.trainerReady === '1') return resolve();
  document.addEventListener('trainer:ready', () => resolve(), { once: true });
  setTimeout(() => reject(new Error('the trainer was not ready in 30 s')), 30000);
})"""


def time_to_ready(page, url: str) -> float:
    page.goto(url)
    page.evaluate(WAIT_READY)
    return page.evaluate(READY_MS)


def answer_times(page, cards: int) -> list[list[float]]:
    page.evaluate(
        """() => { window.__answered = []; document.addEventListener('trainer:answered',
            (e) => window.__answered.push([e.detail.scriptMs, e.detail.frameMs])); }"""
    )
    page.select_option("#drill-set", "all")
    page.select_option("#drill-count", "100")
    page.locator("#start-drill").click()
    seen = 0
    while seen < cards:
        # The right card each time (a wrong one waits on screen before the next).
        target = page.evaluate(
            """() => {
                const shown = document.querySelector('#drill-question .big-kimariji').textContent;
                const data = JSON.parse(document.getElementById('trainer-data').textContent);
                const said = Object.fromEntries(data.poems.map((p) => [p.n, p.said.join('')]));
                const buttons = [...document.querySelectorAll('#drill-options button')];
                return buttons.findIndex((b) => said[b.dataset.poem].startsWith(shown)); }"""
        )
        page.keyboard.press(str(target + 1))
        seen += 1
        page.wait_for_function(f"() => window.__answered.length >= {seen}")
    page.keyboard.press("Escape")
    return page.evaluate("() => window.__answered")


def japanese_font() -> str:
    found = (
        shutil.which("fc-list")
        and subprocess.run(
            ["fc-list", ":lang=ja", "family"], capture_output=True, text=True
        ).stdout.split("\n")[0]
    )
    return f"Japanese font: {found}" if found else "NO Japanese font installed (see the docstring)"


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f}, p95 {p95:.1f}, max {ordered[-1]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads per figure")
    parser.add_argument("--rate", type=float, default=4, help="CPU throttling rate")
    parser.add_argument("--cards", type=int, default=40)
    parser.add_argument("--reviews", type=int, default=10000)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()[0]
    server = Server()
    server.start()
    try:
        url = f"{server.url}/karuta/trainer/"
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            cold, warm, phases = [], [], []
            for _ in range(args.runs):
                context, page = throttled_page(browser, args.rate)
                cold.append(time_to_ready(page, url))
                phases.append(page.evaluate(PHASES))
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                warm.append(time_to_ready(page, url))
                context.close()
            context, page = throttled_page(browser, args.rate)
            time_to_ready(page, url)
            answers = answer_times(page, args.cards)
            page.evaluate(CLEAR)
            empty = page.evaluate(IDB_BYTES)
            page.evaluate(SEED_HISTORY, args.reviews)
            full = page.evaluate(IDB_BYTES)
            reads = [page.evaluate(READ_HISTORY) for _ in range(args.runs)]
            with_history = [time_to_ready(page, url) for _ in range(args.runs)]
            context.close()
            browser.close()
    finally:
        server.stop()

    size = f"{PHONE['width']}x{PHONE['height']}"
    print(f"Chromium, CPU throttling x{args.rate:g}, {size}, {args.runs} runs")
    print(f"time to interactive, first visit (ms):      {summary(cold)}  (goal < 1000)")
    names = ("files arrive", "poems and sets", "IndexedDB opened and read", "drawn")
    parts = ", ".join(
        f"{n} {statistics.median(p[i] for p in phases):.0f}" for i, n in enumerate(names)
    )
    print(f"  of which (median ms): {parts}")
    opened = ", ".join(
        f"{n} {statistics.median(p[i] for p in phases):.0f}"
        for i, n in ((4, "starts opening"), (5, "open"))
    )
    print(f"  IndexedDB from the head (median ms after navigation): {opened}")
    print("  first visits in the order made (ms): " + ", ".join(f"{v:.0f}" for v in cold))
    print(f"time to interactive, cached by the worker:  {summary(warm)}  (goal < 1000)")
    script, frame = [a[0] for a in answers], [a[1] for a in answers]
    print(f"answer -> next card, script (ms), {len(answers)} cards: {summary(script)}  (goal < 16)")
    print(f"answer -> the next frame begins (ms):       {summary(frame)}")
    history = full - empty
    mib = history / 2**20
    print(f"{args.reviews:,}-review history in IndexedDB: {mib:.2f} MiB  (goal < 5 MiB)")
    read = summary([r["ms"] for r in reads])
    print(f"reading it back (ms), {reads[0]['log']:,} entries: {read}  (goal < 100)")
    print(f"time to interactive with that history (ms): {summary(with_history)}")
    load = f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    print(f"machine: load average (1 min) {load}, {os.cpu_count()} cores; {japanese_font()}")


if __name__ == "__main__":
    main()
