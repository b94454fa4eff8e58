"""Run the events' tick by hand, or in a loop where no Celery beat runs (the embedded site)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.utils import timezone

from events import services


class Command(BaseCommand):
    help = "Start due event rounds, catch up on results, run arena waves."

    def add_arguments(self, parser):
        parser.add_argument("--loop", type=float, default=0, help="repeat every N seconds")

    def handle(self, *args, loop: float = 0, **options):
        while True:
            done = services.tick(timezone.now())
            self.stdout.write(" ".join(f"{k}={v}" for k, v in done.items()))
            if not loop:
                return
            time.sleep(loop)
