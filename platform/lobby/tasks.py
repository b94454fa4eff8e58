"""The lobby's sweep (Celery beat, every 5 minutes): places and pairings older than a week
are forgotten, and abandonments of rated matches whose match_finished no receiver saw (a
process killed between the finish's commit and the receivers) are recorded. Recording is
idempotent by (user, match), so the sweep simply reads the last day again."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from lobby import receivers

LOOK_BACK = timedelta(days=1)
KEEP = timedelta(days=7)  # places and pairings older than this are of no more use


@shared_task(name="lobby.catch_up")
def catch_up() -> int:
    purge()
    return receivers.catch_up(timezone.now() - LOOK_BACK)


def purge(now=None) -> int:
    """Forget old places and pairings: the lobby needs only who waits now and each person's
    last game (never the same two twice in a row), and keeps nothing about guests after."""
    from lobby.models import Pairing, Seeker

    cutoff = (now or timezone.now()) - KEEP
    gone, _ = Seeker.objects.filter(joined_at__lt=cutoff).exclude(status="waiting").delete()
    Pairing.objects.filter(created_at__lt=cutoff, seekers=None).delete()
    return gone
