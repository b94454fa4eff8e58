"""The seams the apps built on the match layer use (players, ratings, the lobby, events):
who holds a seat (`Seat.user`), rated rooms, `create_match_for`, `match_finished` with its
`MatchOutcome`, and handles shown at the table and in records."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.test import Client as HttpClient
from django.utils import timezone

from matches import services
from matches.errors import MatchError
from matches.models import Action, Match
from matches.outcome import MatchOutcome, outcome_of, ranked
from matches.services import SeatSpec, create_match_for
from matches.signals import match_finished
from tests.matches.helpers import Client, a_legal_action, load

db = database_sync_to_async
HIDDEN = {"players": 2, "turns": 4}


@pytest.fixture
def finished_signals():
    """Every `match_finished` sent while the test runs: (match_id, outcome)."""
    sent: list[tuple[object, MatchOutcome]] = []

    def receive(sender, match_id, outcome, **kwargs):
        sent.append((match_id, outcome))

    match_finished.connect(receive, weak=False)
    yield sent
    match_finished.disconnect(receive)


def people(django_user_model, *names):
    return [django_user_model.objects.create_user(name, password="x") for name in names]


# --- rooms made over HTTP record who sits where; rated rooms ---------------------------


@pytest.mark.django_db
def test_friend_rooms_record_the_signed_in_people_and_stay_rated_only_between_them(
    django_user_model,
):
    yuki, ren = people(django_user_model, "yuki", "ren")
    owner, friend, guest = HttpClient(), HttpClient(), HttpClient()
    owner.force_login(yuki)
    friend.force_login(ren)
    data = {**HIDDEN, "play_mode": "friend", "rated": "on"}
    accept = {"HTTP_ACCEPT": "application/json"}

    # A guest may not make a rated room: refused in words, nothing made.
    refused = guest.post("/play/new/hiddenhand/", data, **accept)
    assert refused.status_code == 403 and refused.json()["code"] == "sign_in_to_rate"
    assert refused.json()["message"] == str(MatchError("sign_in_to_rate").message)
    assert not Match.objects.exists()

    made = owner.post("/play/new/hiddenhand/", data, **accept).json()
    match = Match.objects.get(pk=made["match"])
    assert match.rated and match.seats.get(index=0).user == yuki
    friend.post(made["invite"], **accept)  # the room is full: it starts
    match.refresh_from_db()
    assert match.status == "playing" and match.rated
    assert [s.user for s in match.seats.all()] == [yuki, ren]

    # A guest at the table, or a CPU from the start: unrated.
    made = owner.post("/play/new/hiddenhand/", data, **accept).json()
    guest.post(made["invite"], **accept)
    match = Match.objects.get(pk=made["match"])
    assert match.status == "playing" and not match.rated
    assert match.seats.get(index=1).user is None  # a guest stays a guest
    made = owner.post("/play/new/hiddenhand/", data, **accept).json()
    services.start_with_cpu(made["match"], [0])
    assert not Match.objects.get(pk=made["match"]).rated

    # A game against the CPU from the menu is never rated (the box speaks of friend rooms),
    # and a guest's seat is as it always was.
    cpu = owner.post("/play/new/hiddenhand/", {**data, "play_mode": "cpu"}, **accept).json()
    assert not Match.objects.get(pk=cpu["match"]).rated
    plain = guest.post("/play/new/hiddenhand/", {**HIDDEN, "play_mode": "cpu"}, **accept)
    assert Match.objects.get(pk=plain.json()["match"]).seats.get(index=0).user is None


# --- create_match_for -------------------------------------------------------------------


@pytest.mark.django_db
def test_create_match_for_starts_at_once_with_a_token_per_person(django_user_model):
    yuki, ren = people(django_user_model, "yuki", "ren")
    match, tokens = create_match_for(
        "hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec(ren.pk)], rated=True
    )
    assert match.status == "playing" and match.rated and match.invite_code is None
    assert set(tokens) == {0, 1} and tokens[0] != tokens[1]
    assert services.token_seats(match.id, tokens[1]) == [1]
    assert [s.user_id for s in match.seats.all()] == [yuki.pk, ren.pk]

    match, tokens = create_match_for(
        "hiddenhand", HIDDEN, "cpu", [SeatSpec(yuki.pk), SeatSpec(cpu_level="easy")], rated=True
    )
    assert set(tokens) == {0} and not match.rated  # a CPU from the start: unrated
    assert match.seats.get(index=1).is_cpu


@pytest.mark.django_db
def test_create_match_for_refuses_bad_input_and_makes_nothing(django_user_model):
    (yuki,) = people(django_user_model, "yuki")
    two = [SeatSpec(yuki.pk), SeatSpec()]
    bad = [
        ("nosuchgame", HIDDEN, "friend", two),
        ("hiddenhand", HIDDEN, "solo", two),  # a mode the game does not have
        ("hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk)]),  # one seat for two
        ("hiddenhand", {**HIDDEN, "players": 9}, "friend", [SeatSpec()] * 9),
        ("hiddenhand", {**HIDDEN, "players": "two"}, "friend", two),
        ("hiddenhand", "players=2", "friend", two),
        ("hiddenhand", HIDDEN, "cpu", [SeatSpec(yuki.pk), SeatSpec(cpu_level="grandmaster")]),
        ("hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec(yuki.pk)]),
        ("hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec(yuki.pk + 999)]),
        ("hiddenhand", HIDDEN, "cpu", [SeatSpec(), SeatSpec(yuki.pk, cpu_level="easy")]),
        ("hiddenhand", HIDDEN, "friend", [{"user_id": yuki.pk}, {}]),
    ]
    for args in bad:
        with pytest.raises(MatchError):
            create_match_for(*args)
    assert not Match.objects.exists()


# --- match_finished and its outcome ------------------------------------------------------


@pytest.mark.django_db
def test_match_finished_is_sent_only_when_the_finishing_commit_happens(
    django_user_model, finished_signals, django_capture_on_commit_callbacks
):
    yuki, ren = people(django_user_model, "yuki", "ren")
    seats = [SeatSpec(yuki.pk), SeatSpec(ren.pk)]
    match, _tokens = create_match_for("hiddenhand", HIDDEN, "friend", seats)
    with django_capture_on_commit_callbacks() as callbacks:
        services.resign(match.id, [0])
        assert Match.objects.get(pk=match.id).status == "finished"
    assert finished_signals == []  # not before the commit (its callbacks run below)
    for callback in callbacks:
        callback()
    assert [m for m, _o in finished_signals] == [match.id]

    # Rolled back: never announced.
    other, _tokens = create_match_for("hiddenhand", HIDDEN, "friend", seats)
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.resign(other.id, [1])
        raise RuntimeError("roll back")
    assert Match.objects.get(pk=other.id).status == "playing"
    assert [m for m, _o in finished_signals] == [match.id]


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_threads")
async def test_a_resignation_over_the_socket_finishes_once_with_the_resigner_last(
    django_user_model, finished_signals
):
    yuki, ren = await db(people)(django_user_model, "yuki", "ren")
    match, tokens = await db(create_match_for)(
        "hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec(ren.pk)], rated=True
    )
    red, watcher = Client(match.id, tokens[0]), Client(match.id)
    await red.connect()
    await watcher.connect()
    # Handles at the table, for the players and the spectators alike.
    for client in (red, watcher):
        assert [s["handle"] for s in client.room["seats"]] == ["yuki", "ren"]
    await red.send({"type": "resign"})
    await watcher.until(lambda f: f["type"] == "state" and f["match"]["status"] == "finished")
    await db(services.rematch)(match.id, tokens[0])  # changes the finished match again
    await red.drain()
    assert len(finished_signals) == 1
    match_id, outcome = finished_signals[0]
    assert match_id == match.id and outcome == await db(outcome_of)(match.id)
    assert outcome.rated and outcome.game == "hiddenhand" and outcome.mode == "friend"
    assert [(s.user_id, s.place, s.forfeited, s.is_cpu) for s in outcome.seats] == [
        (yuki.pk, 2, True, False),
        (ren.pk, 1, False, False),
    ]
    for client in (red, watcher):
        await client.close()


@pytest.mark.anyio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_threads")
async def test_a_seat_the_cpu_played_after_the_grace_forfeits_and_comes_last(
    settings, django_user_model, finished_signals
):
    settings.MATCHES_DISCONNECT_GRACE_S = 0.2
    (yuki,) = await db(people)(django_user_model, "yuki")
    match, tokens = await db(create_match_for)(
        "hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec()]
    )
    red = Client(match.id, tokens[0])  # the guest in seat 1 never comes
    await red.connect()
    rng = random.Random(5)
    for _ in range(40):
        if red.room["status"] == "finished":
            break
        if red.room["to_act"] == [0]:
            action = await db(a_legal_action)(match.id, 0, rng)
            await red.send({"type": "act", "action": action, "action_id": f"r{red.seq}"})
        await red.until(lambda f: f["type"] == "state", timeout=5)
    assert red.room["status"] == "finished"
    await red.drain()
    timeouts = await db(lambda: Action.objects.filter(match=match, actor="timeout").count())()
    assert timeouts >= 1
    assert len(finished_signals) == 1
    seats = finished_signals[0][1].seats
    places = [(s.user_id, s.place, s.forfeited) for s in seats]
    assert places == [(yuki.pk, 1, False), (None, 2, True)]
    assert seats[0].score is not None
    await red.close()


def test_forfeits_come_after_everyone_and_ties_share_a_place():
    assert ranked([1, 1, 3], [False, False, False]) == [1, 1, 3]
    assert ranked([1, 2, 3], [True, False, False]) == [3, 1, 2]
    assert ranked([2, 1, 1], [True, True, False]) == [3, 2, 1]
    assert ranked([1, 1], [False, False]) == [1, 1]


@pytest.mark.django_db
def test_finished_since_lists_finished_matches_for_a_catch_up(django_user_model):
    (yuki,) = people(django_user_model, "yuki")
    before = timezone.now()
    playing, _t = create_match_for("hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec()])
    done, _t = create_match_for("hiddenhand", HIDDEN, "friend", [SeatSpec(), SeatSpec()])
    services.resign(done.id, [1])
    assert list(Match.objects.finished_since(before)) == [Match.objects.get(pk=done.id)]
    assert not Match.objects.finished_since(timezone.now() + timedelta(seconds=1)).exists()
    assert outcome_of(playing.id) is None and outcome_of("not-a-match") is None


# --- handles in records ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_record_names_signed_in_players_by_handle_and_guests_by_colour(django_user_model):
    from records import store
    from records.replay import build

    (yuki,) = people(django_user_model, "yuki")
    match, _t = create_match_for("hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec()])
    services.resign(match.id, [1])
    match.refresh_from_db()
    assert [s["handle"] for s in build(match)["seats"]] == ["yuki", None]
    record = store.for_match(match.id)
    page = HttpClient().get(f"/records/{record.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "yuki" in page and "Blue" in page


# --- never moving: a present person's idle turn in a rated game -------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rated", [True, False])
def test_a_present_persons_idle_turn_is_played_in_a_rated_game_only(
    django_user_model, monkeypatch, rated
):
    """Abandoning a rated game counts "never moving" (docs/lobby.md, "Fair play"). Both
    people stay connected (their leases renewed); the one to act never acts. Rated: the CPU
    plays that turn IDLE_TURN_S (45 s) after it began, not before, a timeout move, and the
    seat has forfeited.
    Unrated (friends): nobody plays for a person who is there."""
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    yuki, ren = people(django_user_model, "yuki", "ren")
    match, _tokens = create_match_for(
        "hiddenhand", HIDDEN, "friend", [SeatSpec(yuki.pk), SeatSpec(ren.pk)], rated=rated
    )
    services.presence(match.id, [0, 1], +1)
    began = now[0]
    match = Match.objects.get(pk=match.id)
    if not rated:
        assert match.due_at is None
        now[0] += timedelta(minutes=5)
        services.renew_leases({str(match.id): [0, 1]})
        assert services.advance(match.id) is None
        return
    assert abs(match.due_at - began - timedelta(seconds=45)) < timedelta(milliseconds=1)
    while now[0] < match.due_at - timedelta(seconds=2):
        now[0] += timedelta(seconds=2)
        services.renew_leases({str(match.id): [0, 1]})
    now[0] = match.due_at - timedelta(milliseconds=5)
    assert services.advance(match.id) is None  # not before
    now[0] = match.due_at
    row = Action.objects.get(match=match, seq=services.advance(match.id))
    assert row.actor == Action.Actor.TIMEOUT
    # The other person plays on; the idle one never moves. The game ends, the idler last.
    idler, rng = row.seat, random.Random(3)
    for _ in range(40):
        match, state = load(match.id)
        if match.status == Match.Status.FINISHED:
            break
        services.renew_leases({str(match.id): [0, 1]})
        if idler in services.get_game(match).to_act(state):
            now[0] = max(now[0], match.due_at)
            assert services.advance(match.id) is not None
        else:
            mover = 1 - idler
            services.submit_action(match.id, [mover], a_legal_action(match.id, mover, rng))
    outcome = outcome_of(match.id)
    assert outcome is not None and outcome.rated
    assert [s.forfeited for s in outcome.seats] == [i == idler for i in (0, 1)]
    assert next(s for s in outcome.seats if s.index == idler).place == 2
