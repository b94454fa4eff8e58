"""A finished match's outcome reaches the ratings exactly once: a receiver, a sweep, a retry
and two processes at once apply it one time between them; unrated games change nothing."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from matches.outcome import MatchOutcome, SeatOutcome
from matches.signals import match_finished
from ratings import apply, receivers, services
from ratings.models import AppliedMatch, Rating, RatingChange

pytestmark = pytest.mark.django_db


def users(*names):
    model = get_user_model()
    return [model.objects.create(username=name).pk for name in names]


def outcome(seats, *, game="karuta", settings=None, rated=True, match_id=None, when=None):
    """seats: (user_id, place) or (user_id, place, {"forfeited"/"is_cpu": True})."""
    built = []
    for index, (user_id, place, *extra) in enumerate(seats):
        flags = extra[0] if extra else {}
        built.append(
            SeatOutcome(
                index=index,
                user_id=user_id,
                is_cpu=flags.get("is_cpu", False),
                place=place,
                score=None,
                forfeited=flags.get("forfeited", False),
            )
        )
    return MatchOutcome(
        match_id=match_id or uuid.uuid4(),
        game=game,
        mode="friend",
        settings=settings if settings is not None else {"mode": "competitive"},
        rated=rated,
        finished_at=when or timezone.now(),
        seats=tuple(built),
    )


def test_an_outcome_applied_again_changes_nothing():
    a, b = users("aoi", "ren")
    finished = outcome([(a, 1), (b, 2)])
    assert apply.apply(finished) == apply.APPLIED
    first = {r.user_id: (r.rating, r.deviation, r.games) for r in Rating.objects.all()}
    assert first[a][0] > 1500 > first[b][0] and first[a][2] == 1
    # The signal delivered twice (send_robust, as the match layer sends it: other apps'
    # receivers look this made-up match up and fail on their own), then the sweep's call.
    for _ in range(2):
        sent = match_finished.send_robust(sender=None, match_id=finished.match_id, outcome=finished)
        assert [r for f, r in sent if f == receivers.on_match_finished] == [None]  # no error
    assert apply.apply(finished) == apply.ALREADY
    again = {r.user_id: (r.rating, r.deviation, r.games) for r in Rating.objects.all()}
    assert again == first
    assert RatingChange.objects.count() == 2
    assert AppliedMatch.objects.filter(match_id=finished.match_id).count() == 1


def test_the_receiver_applies_a_rated_outcome_and_ignores_an_unrated_one():
    a, b = users("aoi", "ren")
    match_finished.send_robust(sender=None, match_id=None, outcome=outcome([(a, 2), (b, 1)]))
    assert services.current(b, "karuta-competitive").rating > 1500
    match_finished.send_robust(
        sender=None, match_id=None, outcome=outcome([(a, 1), (b, 2)], rated=False)
    )
    assert services.current(b, "karuta-competitive").games == 1


@pytest.mark.django_db(transaction=True)
def test_two_processes_applying_the_same_finish_apply_it_once():
    a, b = users("aoi", "ren")
    finished = outcome([(a, 1), (b, 2)])
    start = threading.Barrier(4)
    results = []

    def worker():
        try:
            start.wait()
            results.append(apply.apply(finished))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [apply.ALREADY] * 3 + [apply.APPLIED]
    assert services.current(a, "karuta-competitive").games == 1
    assert RatingChange.objects.count() == 2


def test_an_update_that_fails_leaves_nothing_so_a_retry_applies_it(monkeypatch):
    a, b = users("aoi", "ren")
    finished = outcome([(a, 1), (b, 2)])

    def killed(*args, **kwargs):
        raise RuntimeError("the process died mid-update")

    monkeypatch.setattr(RatingChange.objects, "bulk_create", killed)
    with pytest.raises(RuntimeError):
        apply.apply(finished)
    assert not AppliedMatch.objects.exists() and not Rating.objects.exists()
    monkeypatch.undo()
    assert apply.apply(finished) == apply.APPLIED
    assert services.current(a, "karuta-competitive").games == 1


def test_a_forfeited_seat_loses_and_unrated_games_are_marked_without_a_change():
    a, b, c = users("aoi", "ren", "sora")
    # The game had a ahead, but a left: a loses.
    apply.apply(outcome([(a, 1, {"forfeited": True}), (b, 2)]))
    assert services.current(a, "karuta-competitive").rating < 1500
    assert services.current(b, "karuta-competitive").rating > 1500
    before = list(Rating.objects.order_by("pk").values_list("rating", "games"))
    cpu = outcome([(a, 1), (None, 2, {"is_cpu": True})])
    assert apply.apply(cpu) == apply.UNRATED
    guest = outcome([(a, 1), (None, 2)])
    assert apply.apply(guest) == apply.UNRATED
    cpu_seat_of_a_person = outcome([(a, 1), (c, 2, {"is_cpu": True})])
    assert apply.apply(cpu_seat_of_a_person) == apply.UNRATED
    practice = outcome([(a, 1), (c, 2)], settings={"mode": "competitive", "poem_set": 1})
    assert apply.apply(practice) == apply.UNRATED
    assert list(Rating.objects.order_by("pk").values_list("rating", "games")) == before
    reasons = set(AppliedMatch.objects.exclude(reason="").values_list("reason", flat=True))
    assert reasons == {"a seat was not a signed-in person", "not a rated kind of game"}


def test_multiplayer_games_use_their_own_rating():
    a, b, c = users("aoi", "ren", "sora")
    apply.apply(outcome([(a, 2), (b, 1), (c, 3)], game="bozu", settings={"players": 3}))
    bozu = services.current_many([a, b, c], "bozu")
    assert bozu[b].rating > bozu[a].rating > bozu[c].rating
    assert services.current(a, "karuta-competitive").games == 0


def test_a_real_finish_is_applied_once_by_receiver_sweep_and_late_signal_together(
    django_capture_on_commit_callbacks,
):
    from matches import services as matches
    from matches.services import SeatSpec, create_match_for
    from ratings import tasks

    a, b = users("aoi", "ren")
    karuta = {"mode": "competitive", "memorise_seconds": 0}
    seats = [SeatSpec(a), SeatSpec(b)]
    # Announced as usual: the receiver applies it (ren resigned: aoi wins).
    match, _ = create_match_for("karuta", karuta, "friend", seats, rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        matches.resign(match.id, [1])
    assert services.current(a, "karuta-competitive").games == 1
    assert services.current(b, "karuta-competitive").rating < 1500
    # The process dies after the finishing commit, before any receiver ran.
    lost, _ = create_match_for("karuta", karuta, "friend", seats, rated=True)
    with django_capture_on_commit_callbacks() as callbacks:
        matches.resign(lost.id, [0])
    assert services.current(a, "karuta-competitive").games == 1
    # The sweep as Celery beat schedules it (run here in this process).
    entry = settings.CELERY_BEAT_SCHEDULE["ratings-catch-up"]
    assert entry["task"] == tasks.catch_up.name and entry["schedule"] <= 60
    assert tasks.catch_up.apply().get() == {apply.APPLIED: 1}
    assert tasks.catch_up() == {}
    for late in callbacks:  # the announcement arrives after all: no second update
        late()
    assert services.current(a, "karuta-competitive").games == 2
    assert services.current(b, "karuta-competitive").games == 2
    assert RatingChange.objects.filter(match_id=lost.id).count() == 2
    # A finished game against the CPU (unrated) is never picked up by the sweep.
    cpu, _ = create_match_for(
        "karuta", karuta, "cpu", [SeatSpec(a), SeatSpec(cpu_level="futsu")], rated=True
    )
    with django_capture_on_commit_callbacks():
        matches.resign(cpu.id, [0])
    assert tasks.pending(timezone.now() - timedelta(days=1)) == []
    assert services.current(a, "karuta-competitive").games == 2


def test_with_a_worker_the_finish_only_queues_the_update_which_applies_once(
    django_capture_on_commit_callbacks, monkeypatch, settings, caplog
):
    from matches import services as matches
    from matches.services import SeatSpec, create_match_for
    from ratings import tasks

    settings.RATINGS_CELERY = True
    queued = []
    monkeypatch.setattr(tasks.apply_match, "delay", lambda *args: queued.append(args))
    a, b = users("aoi", "ren")
    karuta = {"mode": "competitive", "memorise_seconds": 0}
    match, _ = create_match_for("karuta", karuta, "friend", [SeatSpec(a), SeatSpec(b)], rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        matches.resign(match.id, [1])
    # The finishing process queued the match id (a JSON message) and changed no rating.
    assert queued == [(str(match.id),)]
    assert not Rating.objects.exists() and not AppliedMatch.objects.exists()
    # The worker runs it (through Celery's task call), then a redelivery of the same message.
    assert tasks.apply_match.apply(args=queued[0]).get() == apply.APPLIED
    assert tasks.apply_match.apply(args=queued[0]).get() == apply.ALREADY
    assert services.current(a, "karuta-competitive").games == 1
    assert services.current(b, "karuta-competitive").rating < 1500
    assert RatingChange.objects.filter(match_id=match.id).count() == 2
    assert tasks.apply_match(str(uuid.uuid4())) == "gone"

    # The broker refuses the message: the finish still succeeds, the sweep applies it.
    def down(*args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.apply_match, "delay", down)
    lost, _ = create_match_for("karuta", karuta, "friend", [SeatSpec(a), SeatSpec(b)], rated=True)
    with django_capture_on_commit_callbacks(execute=True):
        matches.resign(lost.id, [0])
    assert "could not queue a rating update: ConnectionError" in caplog.text
    assert services.current(a, "karuta-competitive").games == 1
    assert tasks.catch_up() == {apply.APPLIED: 1}
    assert services.current(b, "karuta-competitive").games == 2


def test_markers_of_matches_past_the_window_are_purged_and_those_matches_never_reapplied(
    django_capture_on_commit_callbacks,
):
    from matches import services as matches
    from matches.models import Match
    from matches.services import SeatSpec, create_match_for
    from ratings import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["ratings-purge-markers"]
    assert entry["task"] == tasks.purge_markers.name
    a, b = users("aoi", "ren")
    karuta = {"mode": "competitive", "memorise_seconds": 0}
    done = []
    for _ in range(2):
        match, _ = create_match_for(
            "karuta", karuta, "friend", [SeatSpec(a), SeatSpec(b)], rated=True
        )
        with django_capture_on_commit_callbacks(execute=True):
            matches.resign(match.id, [1])
        done.append(match.id)
    old, recent = done
    days = settings.RATINGS_CATCH_UP_DAYS
    # One match finished (and was applied) just past the window and its day of margin.
    long_ago = timezone.now() - timedelta(days=days + 1, minutes=5)
    Match.objects.filter(pk=old).update(finished_at=long_ago)
    AppliedMatch.objects.filter(match_id=old).update(applied_at=long_ago)
    # The other's marker is as old as the window but not its margin: kept.
    AppliedMatch.objects.filter(match_id=recent).update(
        applied_at=timezone.now() - timedelta(days=days, minutes=5)
    )
    assert tasks.purge_markers.apply().get() == 1
    assert list(AppliedMatch.objects.values_list("match_id", flat=True)) == [recent]
    # Without its marker the old match is not applied again: not by the sweep, nor by a
    # message delivered that late.
    assert tasks.catch_up() == {}
    assert tasks.apply_match(str(old)) == apply.TOO_OLD
    assert services.current(a, "karuta-competitive").games == 2
    assert RatingChange.objects.count() == 4


def test_a_genpei_game_is_rated_as_a_team_game_with_the_teams_as_arranged():
    a, b, c, d = users("kou", "mio", "nao", "rin")
    # The room's creator moved seats before the start: seats 0 and 2 played together.
    arranged = {"mode": "genpei", "teams": [2, 2], "seat_teams": [0, 1, 0, 1]}
    apply.apply(outcome([(a, 1), (b, 3), (c, 1), (d, 3)], settings=arranged))
    team = services.current_many([a, b, c, d], "karuta-genpei")
    assert team[a].rating == pytest.approx(team[c].rating)
    assert team[b].rating == pytest.approx(team[d].rating)
    assert team[b].rating < 1500 < team[a].rating
    assert services.current(a, "karuta-competitive").games == 0
