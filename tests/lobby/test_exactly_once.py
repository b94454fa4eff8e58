"""Two processes run every pool's wave at the same moment over the same seekers on
PostgreSQL: each seeker ends in at most one pairing, none is lost, and the pairings are
made by both processes (so they did run at once). Then both start every pairing's match:
each pairing becomes exactly one match."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from lobby import pairing, pools
from lobby.models import Pairing, PoolState, Seeker
from matches.models import Match, Seat
from tests.support.server import database_url

ROOT = Path(__file__).resolve().parents[2]
SEEKERS = 400

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def need_postgresql() -> None:
    if connection.vendor != "postgresql":
        reason = "needs PostgreSQL (DATABASE_URL)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def fill(count: int, rng: random.Random) -> None:
    now = timezone.now()
    keys = sorted(pools.all_pools())
    rows = []
    for i in range(count):
        pool = pools.get(keys[i % len(keys)])
        rows.append(
            Seeker(
                kind=Seeker.Kind.POOL,
                pool=pool.key,
                game=pool.game,
                settings=dict(pool.settings),
                seats=pool.seats,
                rated=pool.rated,
                person=f"g{i}",
                rating=rng.gauss(1500, 250),
                misses=rng.randrange(6),
                joined_at=now,
            )
        )
    Seeker.objects.bulk_create(rows)
    PoolState.objects.bulk_create([PoolState(pool=key) for key in keys])


def run_two(start_matches: bool = False) -> list[str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
    }
    start_at = str(time.time() + 2.0)  # both import Django first, then begin together
    extra = ["--start"] if start_matches else []
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.lobby.wave_runner", start_at, order, *extra],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for order in ("up", "down")
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    return outs


def test_two_processes_pair_every_seeker_at_most_once_and_lose_none():
    need_postgresql()
    fill(SEEKERS, random.Random(39))
    outs = run_two(start_matches=True)

    made = [int(out.split("pairings=")[1].split()[0]) for out in outs]
    started = [int(out.split("started=")[1].split()[0]) for out in outs]
    assert all(n > 0 for n in made), outs  # both processes paired some
    seekers = list(Seeker.objects.all())
    assert len(seekers) == SEEKERS  # none lost
    by_pairing = Counter(s.pairing_id for s in seekers if s.pairing_id is not None)
    assert sum(made) == Pairing.objects.count() == len(by_pairing)
    for s in seekers:
        assert (s.status == "paired") == (s.pairing_id is not None), s
    for group in Pairing.objects.prefetch_related("seekers"):
        members = list(group.seekers.all())
        assert len(members) == pools.get(group.pool).seats
        assert {m.pool for m in members} == {group.pool}
        assert len({m.person for m in members}) == len(members)
    # Both processes tried to start every pairing: each became exactly one match.
    assert sum(started) == Pairing.objects.count() == Match.objects.count()
    match_ids = list(Pairing.objects.values_list("match_id", flat=True))
    assert None not in match_ids and len(set(match_ids)) == len(match_ids)
    seats = Counter(Seat.objects.values_list("match_id", flat=True))
    for group in Pairing.objects.annotate(n=Count("seekers")):
        assert seats[group.match_id] == group.n
    # Whoever still waits could not have been seated: the pure rule finds no group either.
    for key in pools.all_pools():
        left = [
            pairing.Member(s.id, s.person, s.rating, max(0, s.misses - 1))
            for s in seekers
            if s.pool == key and s.status == "waiting"
        ]
        assert pairing.wave(left, pools.get(key).seats) == [], key
