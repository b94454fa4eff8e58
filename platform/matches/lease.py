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
    holds it after this call (a channel) and for how many more seconds (at least 0).

    Read first: another process's live lease costs one SELECT (a non-owner asks each time
    its belief lapses), not a failed UPDATE, a failed INSERT and a SELECT."""
    now = timezone.now()
    until = now + timedelta(seconds=length_s())
    row = Lease.objects.filter(match_id=match_id).values_list("owner", "expires").first()
    if row is not None and row[0] != me and row[1] >= now:
        return row[0], (row[1] - now).total_seconds()
    mine_or_free = Lease.objects.filter(Q(owner=me) | Q(expires__lt=now), match_id=match_id)
    taken = row is not None and mine_or_free.update(
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


def renew(me: str, match_ids: Iterable[Any]) -> set[str]:
    """Keep the leases this process holds on these matches, in one statement. Returns the
    ids (as text) whose lease is still this process's: the others were taken over."""
    ids = [str(i) for i in match_ids]
    if not ids:
        return set()
    until = timezone.now() + timedelta(seconds=length_s())
    kept: set[str] = set()
    for start in range(0, len(ids), 500):  # under SQLite's 999 parameters
        chunk = ids[start : start + 500]
        ours = Lease.objects.filter(owner=me, match_id__in=chunk)
        if ours.update(expires=until) == len(chunk):
            kept.update(chunk)
        else:  # some were taken over: which are still ours
            kept.update(str(i) for i in ours.values_list("match_id", flat=True))
    return kept
