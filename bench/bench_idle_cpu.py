"""What each main page costs the CPU while nothing happens on it, in headless Chromium.

For each page: a new browser context, the page opened and brought to the state a player
waits in (a game against CPUs waiting for the person's move, a friend room waiting for the
friend, ...), one key press (Shift: the gesture that lets a page start its audio), a few
seconds to settle, then WINDOW seconds of nothing. Printed per page, in CPU seconds over
the window: the whole Chromium process tree (summed utime + stime from /proc, which the
other pages' closed contexts no longer touch), the server (daphne), and the page's main
thread from the DevTools Protocol (Performance.getMetrics TaskDuration: script, style,
layout and paint of that page). `blank` is an about:blank page, the browser's own floor.

    PYTHONPATH=platform:. .venv/bin/python bench/bench_idle_cpu.py [--window 10] [--only karuta-cpu]

No baseline is kept: run before and after a change on the same machine, give `uptime`.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from pathlib import Path

from bench_trainer import CHROMIUM, Server  # bench/: the script's own folder is on sys.path

TICK = os.sysconf("SC_CLK_TCK")
DESKTOP = {"width": 1280, "height": 900}
PLAY = re.compile(r"/play/[0-9a-f-]+/$")
ENABLED = "() => document.querySelector('{}')?.getAttribute('aria-disabled') === 'false'"
BOZU_TURN = ENABLED.format("[data-panel-draw]")
BAKUDAN_TURN = ENABLED.format("[data-draw]")


def descendants(root: int) -> list[int]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime


def kind(pid: int) -> str:
    try:
        # Chromium's children rewrite their command line as one string: split on spaces too.
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
    except OSError:
        return "gone"
    if b"daphne" in cmd:
        return "daphne"
    if not cmd[0].endswith(b"chromium") and b"chromium" not in cmd[0]:
        return "other"
    for arg in cmd:
        if arg.startswith(b"--type="):
            sub = [a for a in cmd if a.startswith(b"--utility-sub-type=")]
            name = arg[7:].decode()
            return name + (":" + sub[0].split(b"=")[1].decode().split(".")[0] if sub else "")
    return "browser"


def snapshot(root: int) -> dict[int, tuple[str, float]]:
    return {pid: (kind(pid), cpu_seconds(pid)) for pid in descendants(root)}


def spent(before: dict, after: dict) -> dict[str, float]:
    by_kind: dict[str, float] = {}
    for pid, (name, cpu) in after.items():
        start = before.get(pid, (name, 0.0))[1]
        by_kind[name] = by_kind.get(name, 0.0) + cpu - start
    return by_kind


# --- the pages, each brought to the state a player waits in -------------------------------


def blank(page, base):
    page.goto("about:blank")


def home(page, base):
    page.goto(f"{base}/")


def bozu_rules(page, base):
    page.goto(f"{base}/bozu/")


def karuta_rules(page, base):
    page.goto(f"{base}/karuta/")


def kimariji(page, base):
    page.goto(f"{base}/kimariji/")


def trainer(page, base):
    page.goto(f"{base}/karuta/trainer/")
    page.wait_for_function("() => document.documentElement.dataset.trainerReady === '1'")


def game_vs_cpu(slug, turn):
    """A game against CPUs from its menu, waiting for the person's turn (`turn`: a script)."""

    def scene(page, base):
        page.goto(f"{base}/{slug}/")
        page.click("button[name=play_mode][value=cpu]")
        page.wait_for_url(PLAY)
        page.wait_for_function(turn, polling=100)

    return scene


def bozu_friend(page, base):
    page.goto(f"{base}/bozu/")
    page.click("button[name=play_mode][value=friend]")
    page.wait_for_url(PLAY)
    page.wait_for_selector("[data-invite-url]")


def karuta_cpu(page, base):
    """Competitive against a CPU, in its memorisation time (minutes in a real game): the
    board shown, the clock counting down, the reader waiting."""
    page.goto(f"{base}/karuta/")
    page.check("input[name=mode][value=competitive]")
    page.select_option("#id_memorise_seconds", "300")
    page.click("button[data-play-mode=cpu]")
    page.wait_for_url(PLAY)
    page.wait_for_function("() => window.karutaPlay && window.karutaPlay.view()", polling=100)


def karuta_result(page, base):
    """Solo practice of a few poems at the fastest pace, played out: the result screen."""
    page.goto(f"{base}/karuta/")
    page.check("input[name=mode][value=solo]")
    page.select_option("#id_poem_set", "1")
    page.select_option("#id_pace", "very_fast")
    page.select_option("#id_memorise_seconds", "0")
    page.click("button[data-play-mode=solo]")
    page.wait_for_url(PLAY)
    page.wait_for_function("() => window.karutaPlay && window.karutaPlay.view()", polling=100)
    page.keyboard.press("Shift")
    page.wait_for_function(
        "() => window.karutaPlay.view().phase === 'over'", polling=500, timeout=600_000
    )


def lobby(page, base):
    page.goto(f"{base}/lobby/")
    page.wait_for_function("() => document.getElementById('lobby-status').textContent === ''")


PAGES = {
    "blank": blank,
    "home": home,
    "bozu-rules": bozu_rules,
    "karuta-rules": karuta_rules,
    "kimariji": kimariji,
    "trainer": trainer,
    "bozu-cpu": game_vs_cpu("bozu", BOZU_TURN),
    "bakudan-cpu": game_vs_cpu("bakudan", BAKUDAN_TURN),
    "karuta-cpu": karuta_cpu,
    "friend-room": bozu_friend,
    "lobby": lobby,
    "karuta-result": karuta_result,
}


def measure(browser, base: str, setup, window: float, settle: float) -> dict[str, float]:
    context = browser.new_context(viewport=DESKTOP, locale="ja-JP")
    page = context.new_page()
    setup(page, base)
    page.keyboard.press("Shift")  # a gesture: the page may start its audio now
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    time.sleep(settle)
    metrics = lambda: {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}  # noqa: E731
    m0, p0 = metrics(), snapshot(os.getpid())
    time.sleep(window)
    m1, p1 = metrics(), snapshot(os.getpid())
    context.close()
    out = spent(p0, p1)
    chromium = sum(v for k, v in out.items() if k not in ("daphne", "other", "gone"))
    return {
        "chromium": chromium,
        "renderer": out.get("renderer", 0.0),
        "browser": out.get("browser", 0.0),
        "gpu": out.get("gpu-process", 0.0),
        "audio": out.get("utility:audio", 0.0),
        "daphne": out.get("daphne", 0.0),
        "task": m1["TaskDuration"] - m0["TaskDuration"],
        "script": m1["ScriptDuration"] - m0["ScriptDuration"],
        "layout": sum(m1[k] - m0[k] for k in ("LayoutDuration", "RecalcStyleDuration")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=float, default=10.0, help="seconds measured per page")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds before measuring")
    parser.add_argument("--runs", type=int, default=1, help="measurements per page")
    parser.add_argument("--only", action="append", choices=sorted(PAGES), help="these pages")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS

    load_before = os.getloadavg()[0]
    server = Server()
    server.var = server.var.parent / "idle_cpu"
    server.log_path = server.var / "daphne.log"
    server.start()
    names = args.only or list(PAGES)
    print(f"CPU seconds per {args.window:g} s at rest (after {args.settle:g} s to settle)")
    print("page            chromium renderer browser   gpu  audio daphne |", end="")
    print(" main thread: task script style+layout")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name in names:
                for _ in range(args.runs):
                    r = measure(browser, server.url, PAGES[name], args.window, args.settle)
                    print(
                        f"{name:15s} {r['chromium']:8.2f} {r['renderer']:8.2f} {r['browser']:7.2f}"
                        f" {r['gpu']:5.2f} {r['audio']:6.2f} {r['daphne']:6.2f} |"
                        f" {r['task']:17.3f} {r['script']:6.3f} {r['layout']:12.3f}",
                        flush=True,
                    )
            browser.close()
    finally:
        server.stop()
    load = f"{load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    print(f"machine: load average (1 min) {load}, {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
