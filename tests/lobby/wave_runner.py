"""One process running every quick pool's wave in a loop, for the exactly-once test (and the
bench): started twice at once, on the same database. Prints how many pairings it made.

    python -m tests.lobby.wave_runner <start-at-epoch-seconds> <order: up|down> [--start]
        [--die-in-wave | --die-before-start]

--die-in-wave kills this process (SIGKILL, as kill -9) inside its first wave's transaction,
right after the wave's seekers were moved to their pairings and before the commit;
--die-before-start kills it after its waves committed, before any match is started.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    django.setup()
    from lobby import store
    from lobby.models import Seeker

    start_at, order = float(sys.argv[1]), sys.argv[2]
    start_matches = "--start" in sys.argv
    if "--die-in-wave" in sys.argv:
        move = store._move_to_pairings

        def move_then_die(*args, **kwargs):
            move(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)

        store._move_to_pairings = move_then_die
    time.sleep(max(0.0, start_at - time.time()))  # both processes begin together
    began = time.monotonic()
    made: list[int] = []
    idle_rounds = 0
    while idle_rounds < 3:
        keys = sorted(
            set(Seeker.objects.filter(status="waiting").values_list("pool", flat=True)),
            reverse=order == "down",
        )
        found = [pid for key in keys for pid in store.run_wave(key, force=True)]
        made += found
        idle_rounds = 0 if found else idle_rounds + 1
    paired_in = time.monotonic() - began
    if "--die-before-start" in sys.argv:
        os.kill(os.getpid(), signal.SIGKILL)
    started = 0
    if start_matches:
        from lobby.models import Pairing

        ids = list(Pairing.objects.values_list("id", flat=True).order_by("id"))
        for pid in ids if order == "up" else reversed(ids):
            started += store.start_pairing(pid) is not None
    print(
        f"pairings={len(made)} started={started} waves_s={paired_in:.2f} "
        f"starts_s={time.monotonic() - began - paired_in:.2f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
