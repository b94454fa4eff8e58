"""One process starting an event's due rounds, for the exactly-once test.

    python -m tests.events.round_runner <marker-file> [--hold]

With --hold it claims a round, writes the marker file and then waits inside the
transaction (to be killed there with SIGKILL); without, it starts what is due and prints
how many rounds it started."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
    django.setup()
    from django.utils import timezone

    from events import services

    marker, hold = Path(sys.argv[1]), "--hold" in sys.argv

    def before_commit(rnd):
        if hold:
            marker.write_text(str(rnd.pk))
            time.sleep(120)  # killed here, before the commit

    started = services.start_due_rounds(timezone.now(), before_commit)
    print(f"started={started}", flush=True)


if __name__ == "__main__":
    main()
