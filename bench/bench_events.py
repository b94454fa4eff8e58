#!/usr/bin/env python3
"""Event figures (issue 42; docs/events.md). Prints figures; asserts nothing.

  DATABASE_URL=postgres://postgres@127.0.0.1:5432/hyakunin_events_bench \\
      python bench/bench_events.py                 # all three
  python bench/bench_events.py --only knockout     # on SQLite under var/ (default)

1. knockout: 256 entrants, boards with CPU seats at the fastest test pace (20 kana/s),
   created by the real round start (events.services.start_due_rounds) called at each
   round's due time, as the round's ETA task does (--tick: on the beat's 1 s grid instead).
   Figure: for each round, how long after its due time its last board's match existed
   (pairing + creating every match, EVENTS_OPEN_WORKERS threads). Results are injected
   at the events' receiver (events.services.record_outcome with the MatchOutcome the
   match layer would send), a random winner per board: the CPU games are not played out.
2. arena: 500 entrants for 10 simulated minutes, boards with CPU seats; each game lasts a
   random 60-240 simulated seconds; a game's end runs the real receiver (scoring, then a
   wave) and a tick every 2 simulated seconds runs the real waves. Figure: the delay from
   a game's end to its player's next board: simulated waiting plus the wall time of the
   call that paired them (p50, p99).
3. page: the event page and its live fragment with those 500 entrants, through Django's
   test client (server time: the whole request through the middleware), 30 times each
   after one warm-up request (printed apart: a fresh process's first request is cold).
4. tables: a Bozu Mekuri event for four of 255 entrants in 3 Swiss-style rounds (64 tables,
   one with a CPU seat; the seats are the entrants', not CPUs), each round started by the
   real round start at its due time, as in 1. Figure: as in 1. Results: the MatchOutcome
   of a random order of places at each table, at the events' receiver.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import django_env  # noqa: E402

TICK_S = 1.0  # the beat's tick for rounds (config/settings.py "events-tick")
ARENA_TICK_S = 2.0


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def users(n, prefix):
    from django.contrib.auth import get_user_model

    model = get_user_model()
    model.objects.filter(username__startswith=prefix).delete()
    model.objects.bulk_create([model(username=f"{prefix}{i}") for i in range(n)])
    return list(model.objects.filter(username__startswith=prefix).order_by("pk"))


def new_event(kind, organiser, starts_at, choice="karuta-competitive", **extra):
    from events import services
    from events.gamechoice import build_settings

    game, settings = build_settings(choice, "20", "0")
    return services.create_event(
        organiser,
        name=f"bench {kind}",
        kind=kind,
        choice=choice,
        game=game,
        settings=settings,
        starts_at=starts_at,
        rated=False,
        **extra,
    )


def enter(event, people, rng):
    from events.models import Entrant

    Entrant.objects.bulk_create(
        [Entrant(event=event, user=p, rating=rng.gauss(1500, 250)) for p in people]
    )


def outcome_for(board, winner_seat, when):
    from matches.outcome import MatchOutcome, SeatOutcome

    seats = tuple(
        SeatOutcome(i, None, True, 1 if i == winner_seat else 2, None, False) for i in (0, 1)
    )
    return MatchOutcome(board.match_id, "karuta", "friend", {}, False, when, seats)


def table_outcome(board, rng, when):
    from matches.outcome import MatchOutcome, SeatOutcome

    places = list(range(1, len(board.seats) + 1))
    rng.shuffle(places)
    seats = tuple(
        SeatOutcome(i, None, eid is None, place, None, False)
        for i, (eid, place) in enumerate(zip(board.seats, places, strict=True))
    )
    return MatchOutcome(board.match_id, "bozu", "friend", {}, False, when, seats)


def tables(rng):
    from django.conf import settings
    from django.utils import timezone

    from events import services
    from events.models import Board, Event, Round

    held, settings.EVENTS_CPU_BOARDS = settings.EVENTS_CPU_BOARDS, None  # people's seats
    people = users(256, "btb")
    event = new_event(
        Event.Kind.SWISS, people[0], timezone.now() + timedelta(seconds=2), choice="bozu-4",
        break_seconds=3, rounds_total=3,
    )  # fmt: skip
    enter(event, people[1:], rng)
    print("tables: Bozu for four, 255 entrants, 3 rounds, started at each round's due time")
    print("round  tables  CPU seats  last table created after its time (s)  start call (s)")
    worst = 0.0
    while True:
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        rnd = Round.objects.filter(event=event, started_at__isnull=True).order_by("number")[0]
        time.sleep(max(0.0, (rnd.due_at - timezone.now()).total_seconds()))
        began = time.perf_counter()
        started = services.start_due_rounds(timezone.now())
        call = time.perf_counter() - began
        if not started:
            continue
        boards = list(Board.objects.filter(round=rnd))
        late = (timezone.now() - rnd.due_at).total_seconds()
        worst = max(worst, late)
        cpus = sum(b.seats.count(None) for b in boards)
        print(f"{rnd.number:5}  {len(boards):6}  {cpus:9}  {late:37.2f}  {call:14.2f}")
        for board in boards:
            services.record_outcome(table_outcome(board, rng, timezone.now()))
    print(f"tables: worst round start {worst:.2f} s after its time (goal: within 2 s)")
    settings.EVENTS_CPU_BOARDS = held


def knockout(rng, tick_only):
    from django.utils import timezone

    from events import services
    from events.models import Board, Event, Round

    people = users(257, "bko")
    event = new_event(
        Event.Kind.KNOCKOUT, people[0], timezone.now() + timedelta(seconds=2), break_seconds=3
    )
    enter(event, people[1:], rng)
    how = "the beat's 1 s tick alone" if tick_only else "a task at each round's due time"
    print(f"knockout: 256 entrants, CPU boards at 20 kana/s, started by {how}, 3 s breaks")
    print("round  boards  byes  last board created after its time (s)  start call (s)")
    worst = 0.0
    while True:
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        # The round's task at its due time (services.schedule_start's ETA task, as a Celery
        # worker runs it); --tick: the beat's 1 s tick alone instead.
        rnd = Round.objects.filter(event=event, started_at__isnull=True).order_by("number")[0]
        if tick_only:
            time.sleep(TICK_S - (time.time() % TICK_S))
        else:
            time.sleep(max(0.0, (rnd.due_at - timezone.now()).total_seconds()))
        began = time.perf_counter()
        started = services.start_due_rounds(timezone.now())
        call = time.perf_counter() - began
        if not started:
            continue
        rnd.refresh_from_db()
        boards = list(Board.objects.filter(round=rnd))
        late = (timezone.now() - rnd.due_at).total_seconds()
        worst = max(worst, late)
        byes = sum(b.result == Board.Result.BYE for b in boards)
        print(f"{rnd.number:5}  {len(boards):6}  {byes:4}  {late:37.2f}  {call:14.2f}")
        for board in boards:
            if board.result == Board.Result.PENDING:
                services.record_outcome(outcome_for(board, rng.randrange(2), timezone.now()))
    print(f"knockout: worst round start {worst:.2f} s after its time (goal: within 2 s)")
    return event


def arena(rng):
    from django.db.models import Max
    from django.utils import timezone

    from events import services
    from events.models import Board, Event, Round

    people = users(501, "bar")
    t0 = timezone.now().replace(microsecond=0) + timedelta(days=1)  # a clock of our own
    event = new_event(Event.Kind.ARENA, people[0], t0, minutes=10)
    enter(event, people[1:], rng)
    ends = []  # (sim seconds, board id)
    wall_of_board: dict[int, float] = {}
    seen = 0

    def schedule(now_s, wall):
        nonlocal seen
        for board in Board.objects.filter(event=event, pk__gt=seen).order_by("pk"):
            heapq.heappush(ends, (now_s + rng.uniform(60, 240), board.pk))
            wall_of_board[board.pk] = wall
            seen = board.pk

    began = time.perf_counter()
    call = time.perf_counter()
    services.start_round(Round.objects.get(event=event, number=1).pk, t0)
    schedule(0.0, time.perf_counter() - call)
    now_s, next_tick, calls = 0.0, ARENA_TICK_S, 0
    while ends and now_s < 600:
        if ends[0][0] <= next_tick:
            now_s, board_id = heapq.heappop(ends)
            board = Board.objects.get(pk=board_id)
            call = time.perf_counter()
            services.record_outcome(
                outcome_for(board, rng.randrange(2), t0), t0 + timedelta(seconds=now_s)
            )
        else:
            now_s, next_tick = next_tick, next_tick + ARENA_TICK_S
            call = time.perf_counter()
            services.arena_waves(t0 + timedelta(seconds=now_s))
        calls += 1
        schedule(now_s, time.perf_counter() - call)
    wall = time.perf_counter() - began
    delays = []
    last_end: dict[int, object] = {}
    for board in Board.objects.filter(event=event).order_by("created", "pk"):
        for who in (board.a_id, board.b_id):
            if who in last_end:
                waited = (board.created - last_end[who]).total_seconds()
                delays.append(waited + wall_of_board[board.pk])
        if board.finished_at:
            last_end[board.a_id] = last_end[board.b_id] = board.finished_at
    total = Board.objects.filter(event=event).count()
    top = Board.objects.filter(event=event).aggregate(Max("position"))
    print(
        f"arena: 500 entrants, 10 simulated minutes: {total} boards "
        f"(positions to {top['position__max']}), {calls} receiver/tick calls in {wall:.1f} s"
    )
    print(
        f"arena: pairing delay after a game ends: p50 {pct(delays, 50):.2f} s, "
        f"p99 {pct(delays, 99):.2f} s, max {max(delays):.2f} s over {len(delays)} "
        f"re-pairings (goal: p99 <= 5 s)"
    )
    return event


def page(event):
    from django.test import Client

    client = Client()
    for url, name in (
        (f"/en/events/{event.code}/", "event page"),
        (f"/en/events/{event.code}/live/?v=-1", "live fragment"),
    ):
        # The first request of a fresh process compiles templates and loads the catalogues
        # (about 1 s): printed apart, not one of the 30 (a served site is warm).
        began = time.perf_counter()
        client.get(url)
        cold = (time.perf_counter() - began) * 1000
        times = []
        for _ in range(30):
            began = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.status_code
        print(
            f"page: {name} with {event.entrants.count()} entrants: median "
            f"{statistics.median(times):.1f} ms, p95 {pct(times, 95):.1f} ms (goal <= 100 ms); "
            f"first request of the process {cold:.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["knockout", "arena", "page", "tables"])
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--tick", action="store_true", help="knockout rounds by the tick alone")
    args = parser.parse_args()
    import os

    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    django_env.setup("config.settings_test", "bench-events.sqlite3")
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.EVENTS_CPU_BOARDS = "nyumon"
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    rng = random.Random(args.seed)
    if args.only in (None, "knockout"):
        knockout(rng, args.tick)
    if args.only in (None, "tables"):
        tables(rng)
    if args.only in (None, "arena", "page"):
        from events.models import Event

        held = Event.objects.filter(name="bench arena").order_by("-pk").first()
        if args.only != "page" or held is None:  # --only page: the last run's arena
            held = arena(rng)
        if args.only in (None, "page"):
            page(held)


if __name__ == "__main__":
    main()
