"""A match's writer lease (models.Lease; matches/owner.py): taken or renewed with one
conditional UPDATE, taken over with epoch + 1 once it has expired.

Its length, and why: a server killed for good must have its matches played for (the CPU)
within the disconnect grace + 5 s. Its seats' presence leases lapse 8 s after their last
renewal (`MATCHES_PRESENCE_STALE_S`, renewed every 2 s), so a writer lease of 6 s, renewed
while its process has acts or sockets on the match, has lapsed before any seat of the
dead server is counted gone: the surviving process takes the match over with its first
timer or act after that, and the grace alone decides when the CPU plays.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, When
from django.utils import timezone

from matches.conf import conf
from matches.models import Lease


def length_s() -> float:
    return float(conf("OWNER_LEASE_S", 6))


def take(match_id: Any, me: str) -> tuple[str, float]:
    """Hold (or keep holding) the match's lease if it is free, expired or ours. Returns who
    holds it after this call (a channel) and for how many more seconds (at least 0)."""
    now = timezone.now()
    until = now + timedelta(seconds=length_s())
    taken = Lease.objects.filter(Q(owner=me) | Q(expires__lt=now), match_id=match_id).update(
        epoch=Case(When(owner=me, then=F("epoch")), default=F("epoch") + 1),
        owner=me,
        expires=until,
    )
    if taken:
        return me, length_s()
    try:
        with transaction.atomic():
            Lease.objects.create(match_id=match_id, owner=me, expires=until)
        return me, length_s()
    except IntegrityError:  # someone holds it (or took it just now)
        row = Lease.objects.filter(match_id=match_id).values_list("owner", "expires").first()
        if row is None:
            return me, 0.0  # gone with its match meanwhile
        return row[0], max(0.0, (row[1] - now).total_seconds())


def renew(me: str, match_ids: Iterable[Any]) -> None:
    """Keep the leases this process holds on these matches, in one statement."""
    ids = list(match_ids)
    if ids:
        until = timezone.now() + timedelta(seconds=length_s())
        Lease.objects.filter(owner=me, match_id__in=ids).update(expires=until)
