"""The match services: one transaction per change, the log is the truth, at most once."""

from __future__ import annotations

import dataclasses
import random
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

import gamekit
from matches import frames, services, snapshots, tasks, tokens
from matches.errors import MatchError
from matches.models import Action, Match, Seat
from tests.matches.helpers import a_legal_action, create, load

pytestmark = pytest.mark.django_db(transaction=True)


def play_to_end(match_id, held_by_seat: dict[int, list[int]], seed: int = 1) -> None:
    """Humans play random legal actions; due CPU moves are played by `advance`."""
    rng = random.Random(seed)
    for _ in range(500):
        match, state = load(match_id)
        if match.status != Match.Status.PLAYING:
            return
        game = gamekit.registry.get(match.game)
        (seat,) = game.to_act(state)
        if seat in held_by_seat:
            services.submit_action(
                match_id, held_by_seat[seat], a_legal_action(match_id, seat, rng),
                action_id=f"a{match.seq}",
            )  # fmt: skip
        else:
            assert services.advance(match_id) is not None
    raise AssertionError("the match did not end")


def set_turn_start(match, seat: int, moment) -> None:
    """Pretend the seat's turn (and the last move) began at `moment`."""
    row = Match.objects.get(pk=match.pk)
    ms = int(moment.timestamp() * 1000)
    Match.objects.filter(pk=match.pk).update(turns={**row.turns, str(seat): ms, "last": ms})


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


def test_create_cpu_match_stores_only_a_hash_of_the_token():
    match, token = create(mode="cpu", players=3)
    assert len(token) >= 43  # 32 random bytes, url-safe: 256 bits
    seats = list(match.seats.order_by("index"))
    assert [s.colour for s in seats] == ["red", "blue", "green"]
    assert [s.kind for s in seats] == ["human", "cpu", "cpu"]
    assert seats[0].token_hash == services.hash_token(token) != token
    assert not any(token in str(v) for s in seats for v in s.__dict__.values())
    assert match.status == Match.Status.PLAYING and match.seq == 1


def test_tokens_are_compared_as_digests_of_one_length(monkeypatch):
    """What makes the comparison safe: the decision is `hmac.compare_digest`'s, and it only
    ever sees two SHA-256 digests of the same length, whatever the token's length, so
    neither a prefix nor a length can be timed. Every near miss is refused."""
    match, token = create(mode="friend", players=3)
    stored = Seat.objects.get(match=match, index=0).token_hash
    compared: list[tuple[int, int]] = []
    real = tokens.hmac.compare_digest

    def recording(a, b):
        compared.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(tokens.hmac, "compare_digest", recording)
    flipped = [token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :] for i in (0, 20, -1)]
    wrong = [
        "",
        "x",
        token[:1],
        token[:-1],  # every prefix of the right token is just another wrong token
        token + "x",
        token * 2,
        *flipped,
        stored,  # what the database holds is not the token
        "x" * 200,
        "x" * 201,  # longer than any token: refused before hashing
    ]
    for candidate in wrong:
        assert services.token_seats(match.id, candidate) == [], candidate
    assert services.token_seats(match.id, None) == []
    assert services.token_seats(match.id, token) == [0]
    assert compared, "the seats were not compared with compare_digest"
    assert set(compared) == {(64, 64)}, "something other than two digests was compared"

    # And compare_digest decides: if it says no, the right token holds nothing.
    monkeypatch.setattr(tokens.hmac, "compare_digest", lambda a, b: False)
    assert services.token_seats(match.id, token) == []


def test_hotseat_token_holds_every_seat():
    match, token = create(mode="hotseat", players=3)
    assert services.token_seats(match.id, token) == [0, 1, 2]
    play_to_end(match.id, {0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1, 2]})
    assert Match.objects.get(pk=match.id).status == Match.Status.FINISHED
    assert not Action.objects.filter(match=match, actor="cpu").exists()


def test_replaying_the_log_reproduces_the_snapshot():
    match, _token = create(mode="cpu", players=4, turns=30)
    play_to_end(match.id, {0: [0]}, seed=5)
    match = Match.objects.get(pk=match.id)
    game = gamekit.registry.get(match.game)
    assert game.dump_state(services.replay(match)) == match.state
    seqs = list(match.actions.values_list("seq", flat=True))
    assert seqs == list(range(1, match.seq + 1))  # numbered 1, 2, 3 … with no gap
    assert match.actions.filter(actor="cpu").count() > 10


def test_refused_actions_change_nothing():
    match, _token = create(mode="hotseat")
    before = Match.objects.get(pk=match.id)
    with pytest.raises(gamekit.NotYourTurnError):
        services.submit_action(match.id, [0, 1], {"type": "draw"}, seat=1)
    with pytest.raises(gamekit.IllegalActionError):
        services.submit_action(match.id, [0, 1], {"type": "play", "card": "x"}, seat=0)
    with pytest.raises(gamekit.InvalidActionError):
        services.submit_action(match.id, [0, 1], {"type": "dance"}, seat=0)
    with pytest.raises(gamekit.InvalidActionError):  # the engine trips: still a typed refusal
        services.submit_action(match.id, [0, 1], {"type": ["draw"]}, seat=0)
    with pytest.raises(MatchError, match="stale"):
        services.submit_action(match.id, [0, 1], {"type": "draw"}, seat=0, expected_seq=0)
    with pytest.raises(MatchError, match="not_your_seat"):
        services.submit_action(match.id, [0], {"type": "draw"}, seat=1)
    with pytest.raises(MatchError, match="spectator"):
        services.submit_action(match.id, [], {"type": "draw"})
    after = Match.objects.get(pk=match.id)
    assert (after.seq, after.state) == (before.seq, before.state)
    assert after.actions.count() == 1


def test_a_retried_action_id_is_applied_once():
    match, _token = create(mode="hotseat")
    first = services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="x1")
    again = services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="x1")
    assert again == services.Applied(first.seq, duplicate=True)
    assert Match.objects.get(pk=match.id).seq == first.seq
    # Someone else reusing the id is refused, not mistaken for a retry.
    other, _t = create(mode="friend")
    _m, seat, _tok = services.join(other.invite_code)
    services.submit_action(other.id, [0], {"type": "draw"}, action_id="same")
    with pytest.raises(MatchError, match="duplicate_action_id"):
        services.submit_action(other.id, [seat], {"type": "draw"}, action_id="same")


def test_a_cpu_move_is_applied_at_most_once():
    match, _token = create(mode="cpu")
    applied = services.submit_action(match.id, [0], {"type": "draw"})
    assert services.advance(match.id, expected_seq=applied.seq) == applied.seq + 1
    # The same scheduled move again (another process, a retried task): nothing happens.
    assert services.advance(match.id, expected_seq=applied.seq) is None
    assert Match.objects.get(pk=match.id).seq == applied.seq + 1
    # Nor does a CPU play a human's turn.
    assert services.advance(match.id) is None


def test_two_concurrent_joins_never_share_a_seat():
    # SQLite serialises the writers; run with DATABASE_URL to exercise PostgreSQL's row lock.
    match, _token = create(mode="friend", players=4)
    results, errors = [], []
    barrier = threading.Barrier(3)

    def join():
        try:
            barrier.wait()
            results.append(services.join(match.invite_code)[1])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=join) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(results) == [1, 2, 3]
    match = Match.objects.get(pk=match.id)
    assert match.status == Match.Status.PLAYING  # the last join filled the room
    with pytest.raises(MatchError, match="room_full"):
        services.join(match.invite_code)


def test_friend_room_start_with_cpu_invite_again():
    match, _token = create(mode="friend", players=3)
    old_code = match.invite_code
    _m, seat, _guest = services.join(old_code)
    with pytest.raises(MatchError, match="not_owner"):
        services.start_with_cpu(match.id, [seat])
    new_code = services.new_invite(match.id, [seat])
    assert new_code != old_code
    with pytest.raises(MatchError, match="bad_invite"):
        services.join(old_code)
    services.start_with_cpu(match.id, [0])
    kinds = list(Seat.objects.filter(match=match).values_list("kind", flat=True))
    assert kinds == ["human", "human", "cpu"]
    with pytest.raises(MatchError, match="not_waiting"):
        services.start_with_cpu(match.id, [0])


def test_resign_with_two_players_leave_with_three():
    two, _t = create(mode="friend", players=2)
    services.join(two.invite_code)
    with pytest.raises(MatchError, match="not_allowed"):
        services.leave(two.id, [1])
    services.resign(two.id, [1])
    two = Match.objects.get(pk=two.id)
    assert two.status == Match.Status.FINISHED
    outcome = gamekit.Outcome.from_json(two.outcome)
    assert outcome == gamekit.Outcome((1, 2), None, gamekit.Termination.RESIGNED, seat=1)
    assert outcome.winners == (0,)

    three, _token = create(mode="friend", players=3)
    services.join(three.invite_code)
    services.join(three.invite_code)
    with pytest.raises(MatchError, match="not_allowed"):
        services.resign(three.id, [2])
    services.leave(three.id, [2])
    seat = Seat.objects.get(match=three, index=2)
    assert seat.kind == "cpu" and seat.token_hash == ""
    # The CPU now plays seat 2 to the end; the two humans play theirs.
    play_to_end(three.id, {0: [0], 1: [1]})
    assert Action.objects.filter(match=three, seat=2, actor="cpu").exists()


def test_resign_against_cpus_only_ends_the_match():
    """Nobody else would play on: against CPUs at any table size, and alone in solo
    practice, resigning ends the match (issue 26: every karuta mode can be stopped)."""
    three, _token = create(mode="cpu", players=3)
    services.resign(three.id, [0])
    three = Match.objects.get(pk=three.id)
    assert three.status == Match.Status.FINISHED
    outcome = gamekit.Outcome.from_json(three.outcome)
    assert outcome == gamekit.Outcome((2, 1, 1), None, gamekit.Termination.RESIGNED, seat=0)
    with pytest.raises(MatchError, match="finished"):
        services.resign(three.id, [0])

    solo, _token = services.create_match("karuta", {"mode": "solo", "players": 1}, "solo")
    services.resign(solo.id, [0])
    solo = Match.objects.get(pk=solo.id)
    assert solo.status == Match.Status.FINISHED
    assert gamekit.Outcome.from_json(solo.outcome).termination == gamekit.Termination.RESIGNED


def test_play_again_makes_one_next_match_for_everyone():
    match, token = create(mode="friend", players=2, turns=2)
    _m, _seat, guest = services.join(match.invite_code)
    play_to_end(match.id, {0: [0], 1: [1]})
    nxt_a, token_a = services.rematch(match.id, token)
    nxt_b, token_b = services.rematch(match.id, guest)
    nxt_s, token_s = services.rematch(match.id, None)  # a spectator
    assert nxt_a.pk == nxt_b.pk == nxt_s.pk
    assert Match.objects.get(pk=match.id).next_match_id == nxt_a.pk
    assert token_s is None
    assert services.token_seats(nxt_a.pk, token_a) == [0]
    assert services.token_seats(nxt_a.pk, token_b) == [1]
    assert Match.objects.get(pk=nxt_a.pk).status == Match.Status.PLAYING
    assert Match.objects.filter(previous_match=match).count() == 1


def test_disconnect_clock_counts_only_the_absent_players_turns(settings):
    settings.MATCHES_DISCONNECT_GRACE_S = 45
    match, _token = create(mode="friend", players=2)
    _m, _seat, _guest = services.join(match.invite_code)
    services.presence(match.id, [0], +1)
    services.presence(match.id, [1], +1)
    services.submit_action(match.id, [0], {"type": "draw"})  # now blue's turn
    services.presence(match.id, [1], -1)  # blue drops
    now = timezone.now()
    # Blue dropped 100 s ago, but it has been blue's turn for 20 s only: not yet.
    Seat.objects.filter(match=match, index=1).update(
        disconnected_since=now - timedelta(seconds=100)
    )
    set_turn_start(match, 1, now - timedelta(seconds=20))
    assert services.advance(match.id) is None
    # 46 s into blue's own turn: the CPU plays it, marked as a timeout.
    set_turn_start(match, 1, now - timedelta(seconds=46))
    seq = services.advance(match.id)
    assert seq is not None
    assert Action.objects.get(match=match, seq=seq).actor == "timeout"
    # Red's turn: red is here, nothing is due.
    services.submit_action(match.id, [0], {"type": "draw"})
    # Blue's time is used up: the CPU keeps playing blue's turns (after the pacing delay) …
    assert Seat.objects.get(match=match, index=1).away_ms >= 45000
    assert services.advance(match.id) is not None
    services.submit_action(match.id, [0], {"type": "draw"})
    # … until blue comes back with the token: the clock ends.
    services.presence(match.id, [1], +1)
    assert Seat.objects.get(match=match, index=1).away_ms == 0
    assert services.advance(match.id) is None
    assert Match.objects.get(pk=match.id).due_at is None


def test_sweeper_moves_stalled_matches():
    match, _token = create(mode="cpu")
    services.submit_action(match.id, [0], {"type": "draw"})
    seq = Match.objects.get(pk=match.id).seq
    Match.objects.filter(pk=match.id).update(due_at=timezone.now() - timedelta(minutes=5))
    set_turn_start(match, 1, timezone.now() - timedelta(minutes=5))
    assert tasks.sweep_stalled_matches.apply().get() == 1
    assert Match.objects.get(pk=match.id).seq == seq + 1
    assert tasks.advance_match.apply(args=(str(match.id), seq)).get() is None  # already moved


def test_commits_queue_a_celery_task_with_the_due_time(settings, monkeypatch):
    settings.MATCHES_CELERY = True
    queued = []
    from config.celery import app

    monkeypatch.setattr(app, "send_task", lambda name, args, eta: queued.append((args, eta)))
    match, _token = create(mode="cpu")
    services.submit_action(match.id, [0], {"type": "draw"})
    match = Match.objects.get(pk=match.id)
    assert queued[-1] == ((str(match.id), match.seq), match.due_at)


def test_beat_schedule_has_the_sweeper():
    from django.conf import settings

    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["matches-sweep-stalled"]
    assert entry["task"] in app.tasks
    assert entry["schedule"] <= 30


def test_a_realtime_game_where_several_seats_act_at_once_runs_through_the_same_path(monkeypatch):
    """Karuta puts several seats in to_act at once; CPUs and a human share turns. A timed
    game's CPU touches when its time comes: the injected clock moves to each due time."""
    from django.utils import timezone

    clock = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    game = gamekit.registry.get("karuta")
    match, _token = services.create_match("karuta", {"players": 3, "mode": "chirashi"}, "cpu")
    several_at_once = False
    for _ in range(5000):
        match, state = load(match.id)
        if match.status != Match.Status.PLAYING:
            break
        to_act = game.to_act(state)
        several_at_once |= len(to_act) > 1
        if 0 in to_act:
            legal = game.legal_actions(state, 0)
            action = next((a for a in legal if a["type"] in ("pass", "ready", "send")), legal[0])
            services.submit_action(match.id, [0], action)
        else:
            assert match.due_at is not None
            if match.due_at > clock[0]:
                assert services.advance(match.id) is None  # not yet: time must pass
                clock[0] = match.due_at
            assert services.advance(match.id) is not None
    match = Match.objects.get(pk=match.id)
    assert match.status == Match.Status.FINISHED and several_at_once
    assert game.dump_state(services.replay(match)) == match.state


# --- the move path: this process's snapshot, confirmed under the row lock -------------------


def hidden_behind(match_id, stale):
    """Put back a snapshot from before a move, as a process that missed that move has it."""
    snapshots.forget(match_id)  # `put` keeps a later snapshot over an earlier one
    snapshots.put(stale)


def test_a_move_made_by_another_process_is_noticed_under_the_lock():
    match, _token = create(mode="hotseat")
    stale = snapshots.current(match.id)
    first = services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="there")
    hidden_behind(match.id, stale)
    _m, state = load(match.id)
    (now_to_act,) = gamekit.registry.get(match.game).to_act(state)
    (old_to_act,) = gamekit.registry.get(match.game).to_act(stale.state)
    assert now_to_act != old_to_act
    # The stale snapshot says it is old_to_act's turn: the lock finds the match moved on,
    # the action is decided again on fresh data and refused. Nothing is written twice.
    with pytest.raises(gamekit.NotYourTurnError):
        services.submit_action(match.id, [0, 1], {"type": "draw"}, seat=old_to_act)
    hidden_behind(match.id, stale)
    # The stale snapshot says it is not now_to_act's turn: checked again before refusing.
    applied = services.submit_action(match.id, [0, 1], {"type": "draw"}, seat=now_to_act)
    assert applied.seq == first.seq + 1
    match = Match.objects.get(pk=match.id)
    assert list(match.actions.values_list("seq", "seat")) == [
        (1, None), (2, old_to_act), (3, now_to_act),
    ]  # fmt: skip
    assert gamekit.registry.get(match.game).dump_state(services.replay(match)) == match.state


def test_a_retry_older_than_the_snapshot_rows_is_still_applied_once():
    match, _token = create(mode="hotseat", turns=20)
    first = services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="early")
    for n in range(3):
        services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id=f"later{n}")
    snap = snapshots.current(match.id)
    snapshots.put(dataclasses.replace(snap, rows=[]))  # the id is no longer in memory
    again = services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="early")
    assert again == services.Applied(first.seq, duplicate=True)
    assert Match.objects.get(pk=match.id).seq == snap.match.seq  # the unique constraint held


def test_a_presence_change_refreshes_this_process_snapshot_without_a_read():
    match, _token = create(mode="friend")
    services.join(match.invite_code)  # two players: the match starts
    snapshots.current(match.id)
    seq, notices = services.collecting_notices(services.presence)(match.id, [1], +1)
    ((_group, message),) = notices
    # The other sockets of this process answer the notice from memory (no database call).
    frame = frames.cached_frame(match.id, frames.Viewer.of([0]), seq, seq, message["presence"])
    assert frame is not None
    assert [s["connected"] for s in frame.match["seats"]] == [False, True]


def test_another_process_follows_a_move_from_its_notice_without_a_read():
    match, _token = create(mode="hotseat", turns=20)
    behind = snapshots.current(match.id)  # the other process's snapshot, one move behind
    applied, notices = services.collecting_notices(services.submit_action)(
        match.id, [0, 1], {"type": "draw"}, action_id="m1"
    )
    ((_group, message),) = notices
    hidden_behind(match.id, behind)
    snapshots.catch_up(match.id, message["move"])
    followed = snapshots.peek(match.id)
    stored = Match.objects.get(pk=match.id)
    game = gamekit.registry.get(match.game)
    assert followed.match.seq == applied.seq == stored.seq
    assert game.dump_state(followed.state) == stored.state
    assert (followed.match.turns, followed.match.due_at) == (stored.turns, stored.due_at)
    frame = frames.cached_frame(match.id, frames.Viewer.of([0, 1]), applied.seq - 1, applied.seq)
    assert [e["seq"] for e in frame.events] == [applied.seq]
    # Already there (its own move): nothing changes. Events that differ: read again.
    snapshots.catch_up(match.id, message["move"])
    assert snapshots.peek(match.id) is followed
    hidden_behind(match.id, behind)
    snapshots.catch_up(match.id, {**message["move"], "events": [{"type": "something else"}]})
    assert snapshots.peek(match.id) is None


def test_the_snapshot_cache_keeps_the_later_of_two_writers():
    """Two threads store snapshots (the acts' and the heartbeat's): one that commits first
    but stores last must not put the cache back before the other's move."""
    match, _token = create(mode="hotseat")
    before = snapshots.current(match.id)
    services.submit_action(match.id, [0, 1], {"type": "draw"}, action_id="later")
    after = snapshots.peek(match.id)
    assert after.match.seq == before.match.seq + 1
    assert snapshots.put(before) is after
    assert snapshots.peek(match.id) is after
