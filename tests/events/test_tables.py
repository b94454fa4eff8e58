"""Table games in an event (genpei 2 v 2, Bozu for four, Bakudan) through the real match
layer: tables are matches made by create_match_for, ended the real way (Bakudan's leavers
are out: people resign until the match is over), scored from the outcome's places."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from events import services, standings, tables
from events.forms import EventForm
from events.gamechoice import build_settings
from events.models import Board, Event
from matches import rooms
from matches.cookies import SEAT_COOKIE
from matches.models import Match, Seat
from matches.outcome import outcome_of
from ratings.models import Rating
from tests.games.karuta.test_play_page import script_json

pytestmark = pytest.mark.django_db


def people(*names):
    return [get_user_model().objects.create(username=name) for name in names]


def table_event(organiser, choice, kind=Event.Kind.SWISS, **extra):
    game, settings = build_settings(choice, "20", "0")
    fields = dict(
        name="club tables",
        kind=kind,
        choice=choice,
        game=game,
        settings=settings,
        starts_at=timezone.now() - timedelta(seconds=1),
        break_seconds=0,
        rounds_total=2,
    )
    fields.update(extra)
    return services.create_event(organiser, **fields)


def end_by_resigning(board, capture):
    """Every person at the table resigns in seat order until the match is over."""
    humans = list(
        Seat.objects.filter(match_id=board.match_id, kind=Seat.Kind.HUMAN).order_by("index")
    )
    for seat in humans:
        if Match.objects.get(pk=board.match_id).status == Match.Status.FINISHED:
            break
        with capture(execute=True):
            rooms.resign(board.match_id, [seat.index], seat.index)
    assert Match.objects.get(pk=board.match_id).status == Match.Status.FINISHED


def test_bakudan_tables_of_three_seat_by_rating_then_by_points(
    client, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    host, *field = people("host", "aoi", "ren", "sou", "yui", "kei")
    key = services.rating_key("bakudan", services.MODE, build_settings("bakudan-3", "", "")[1])
    for user, rating in zip(field, (1500, 1900, 1700, 1300, 1600), strict=True):
        Rating.objects.create(user=user, key=key, rating=rating, deviation=60)
    event = table_event(host, "bakudan-3")
    entrants = {u.username: services.join(event, u) for u in field}
    with capture(execute=True):
        assert services.start_due_rounds(timezone.now()) == 1
    first = list(Board.objects.filter(event=event, round__number=1).order_by("position"))
    # Five for tables of three: two tables, 3 and 2 with the CPU, by rating (ren 1900,
    # sou 1700, kei 1600 | aoi 1500, yui 1300 + CPU).
    by_name = {e.pk: name for name, e in entrants.items()}
    assert [[by_name.get(x) for x in b.seats] for b in first] == [
        ["ren", "sou", "kei"],
        ["aoi", "yui", None],
    ]
    cpu_seat = Seat.objects.get(match_id=first[1].match_id, index=2)
    assert cpu_seat.kind == Seat.Kind.CPU
    assert set(
        Seat.objects.filter(match_id=first[0].match_id).values_list("user_id", flat=True)
    ) == {entrants[n].user_id for n in ("ren", "sou", "kei")}

    # The projector of a table: every seat's handle, the CPU's named; a spectator's
    # config (no seat); every card's face, all 100 (nothing hints at which are in play).
    html = client.get(f"/en/events/{event.code}/board/{first[1].pk}/projector/").content.decode()
    assert script_json(html, "match-config")["seats"] == []
    assert len(script_json(html, "projector-cards")) == 100
    assert all(f'id="seat-{i}">{h}<' in html for i, h in enumerate(("aoi", "yui", "CPU")))
    # yui takes her seat at the second table from the event page (her board is offered to
    # her live), with the seat the match made for her; ren, at the first table, may not.
    yui = entrants["yui"].user
    client.force_login(yui)
    live = client.get(f"/en/events/{event.code}/live/?v=-1").content.decode()
    assert f"/board/{first[1].pk}/seat/" in live and 'id="my-board"' in live
    taken = client.post(f"/events/{event.code}/board/{first[1].pk}/seat/")
    assert taken["Location"] == f"/play/{first[1].match_id}/"
    assert taken.cookies[SEAT_COOKIE].value
    client.force_login(entrants["ren"].user)
    assert client.post(f"/events/{event.code}/board/{first[1].pk}/seat/").status_code == 403
    client.logout()
    for board in first:
        end_by_resigning(board, capture)
    for board in first:
        board.refresh_from_db()
        outcome = outcome_of(board.match_id)
        assert board.result in (Board.Result.PLAYED, Board.Result.FORFEIT)
        assert board.places == [s.place for s in outcome.seats]  # the match layer's places
    # The round is decided; round 2 is due at once (no break) and seats by points.
    with capture(execute=True):
        assert services.start_due_rounds(timezone.now()) == 1
    table = standings.build(Event.objects.get(pk=event.pk))
    got = {r.entrant_id: r.score for r in table.rows}
    for board in first:
        for eid, pts in zip(board.seats, tables.points(board.places), strict=True):
            if eid is not None:
                assert got[eid] == pts
    order = [r.entrant_id for r in table.rows]
    second = list(Board.objects.filter(event=event, round__number=2).order_by("position"))
    # Everyone seated again, by the standings (tables.seat_tables, then tables.mix: the
    # pure tests check the order and the mixing).
    assert sorted(x for b in second for x in b.seats if x is not None) == sorted(order)
    assert [b.seats.count(None) for b in second] == [0, 1]
    for board in second:
        end_by_resigning(board, capture)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    final = standings.build(event)
    assert final.champion == final.rows[0].handle
    assert [r.score for r in final.rows] == sorted((r.score for r in final.rows), reverse=True)
    page = client.get(f"/en/events/{event.code}/").content.decode()
    assert "Bakudan Mekuri (tables of three)" in page and "First places" in page
    assert "yui" in page and "CPU" in page and "place 1" in page
    data = standings.export(final)
    assert {s["handle"] for s in data["rounds"][0]["boards"][1]["seats"]} == {"aoi", "yui", None}


def test_a_table_game_is_refused_as_a_knockout_and_makes_genpei_settings():
    form = EventForm(
        data={
            "name": "genpei night",
            "kind": "knockout",
            "choice": "karuta-genpei-2v2",
            "pace": "20",
            "memorise_seconds": "0",
            "starts_at": (timezone.now() + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"),
            "tz_offset": "0",
            "break_seconds": "0",
            "rounds_total": "3",
        }
    )
    assert not form.is_valid() and "kind" in form.errors
    form.data = {**form.data, "kind": "swiss"}
    form.full_clean()
    assert form.is_valid(), form.errors
    fields = form.event_fields()
    assert fields["settings"]["mode"] == "genpei" and fields["settings"]["teams"] == [2, 2]
    assert fields["settings"]["pace"] == 20


def test_genpei_tables_are_matches_of_two_even_teams(django_capture_on_commit_callbacks):
    host, *field = people("host", "a", "b", "c", "d", "e")
    event = table_event(host, "karuta-genpei-2v2", rounds_total=1)
    key = services.key_of(event)
    for user, rating in zip(field, (1900, 1700, 1600, 1400, 1500), strict=True):
        Rating.objects.create(user=user, key=key, rating=rating, deviation=60)
    for user in field:
        services.join(event, user)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_due_rounds(timezone.now())
    boards = list(Board.objects.filter(event=event).order_by("position"))
    names = {e.pk: e.user.username for e in event.entrants.select_related("user")}
    # Five: a table of three and a CPU, one of two and two CPUs, each split in two teams.
    assert [[names.get(x) for x in b.seats] for b in boards] == [
        ["b", "c", "a", None],
        ["e", None, "d", None],
    ]
    users = {e.pk: e.user_id for e in event.entrants.all()}
    for board in boards:
        seats = Seat.objects.filter(match_id=board.match_id).order_by("index")
        assert [s.user_id for s in seats] == [users.get(x) for x in board.seats]
        assert [s.kind == Seat.Kind.CPU for s in seats] == [x is None for x in board.seats]
        match = Match.objects.get(pk=board.match_id)
        assert match.settings["teams"] == [2, 2] and match.settings["mode"] == "genpei"


def test_an_arena_of_tables_waves_scores_places_and_seats_the_last_with_cpus(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    host, *field = people("host", "aoi", "ren", "sou", "yui")
    event = table_event(host, "bakudan-3", kind=Event.Kind.ARENA, minutes=10, rounds_total=None)
    for user in field:
        services.join(event, user)
    start = timezone.now()
    with capture(execute=True):
        services.start_due_rounds(start)
    (table,) = Board.objects.filter(event=event)
    assert None not in table.seats  # three people at once; the fourth waits
    (left,) = event.entrants.filter(waiting_since__isnull=False)
    with capture(execute=True):
        assert services.arena_waves(start + timedelta(seconds=services.TABLE_WAIT_S - 1)) == 0
        assert services.arena_waves(start + timedelta(seconds=services.TABLE_WAIT_S)) == 1
    alone = Board.objects.get(event=event, a=left)
    assert alone.seats == [left.pk, None, None]  # nobody waits alone for long: the CPUs
    end_by_resigning(table, capture)
    table.refresh_from_db()
    for eid, place in zip(table.seats, table.places, strict=True):
        entrant = event.entrants.get(pk=eid)
        assert entrant.games == 1
        assert entrant.score == {1: 2, 2: 0, 3: 0}[place]  # a first place is a win
    # The three of that table are the only ones waiting: they sit together again at once.
    again = Board.objects.filter(event=event).order_by("-pk").first()
    assert again.pk not in (table.pk, alone.pk) and sorted(again.seats) == sorted(table.seats)
    assert not event.entrants.filter(waiting_since__isnull=False).exists()


def test_chirashi_for_four_is_a_table_game(django_capture_on_commit_callbacks):
    host, *field = people("host", "p1", "p2", "p3", "p4", "p5", "p6")
    event = table_event(host, "karuta-chirashi-4", rounds_total=1)
    for user in field:
        services.join(event, user)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_due_rounds(timezone.now())
    boards = list(Board.objects.filter(event=event).order_by("position"))
    assert [b.seats.count(None) for b in boards] == [1, 1]  # six people: 3 + 3, a CPU each
    for board in boards:
        match = Match.objects.get(pk=board.match_id)
        assert match.settings["mode"] == "chirashi" and match.settings["players"] == 4
        assert Seat.objects.filter(match=match, kind=Seat.Kind.HUMAN).count() == 3


def test_the_organisers_tools_at_a_table(django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    host, *field = people("host", "t1", "t2", "t3", "t4", "t5", "t6")
    event = table_event(host, "bakudan-3")
    for user in field:
        services.join(event, user)
    with capture(execute=True):
        services.start_due_rounds(timezone.now())
    first, second = Board.objects.filter(event=event).order_by("position")
    # Re-pair: the same people in a new match, seat for seat; the old match counts no more.
    old = first.match_id
    with capture(execute=True):
        services.repair_board(event, first, timezone.now())
    first.refresh_from_db()
    assert first.match_id != old
    users = {e.pk: e.user_id for e in event.entrants.all()}
    seats = Seat.objects.filter(match_id=first.match_id).order_by("index")
    assert [s.user_id for s in seats] == [users[x] for x in first.seats]
    # Withdraw someone at the second table: it plays on and counts for the others; the
    # withdrawn entrant is not seated in the next round.
    gone = event.entrants.get(pk=second.seats[0])
    services.withdraw(event, gone, timezone.now())
    second.refresh_from_db()
    assert second.result == Board.Result.PENDING
    for board in (first, second):
        end_by_resigning(board, capture)
    with capture(execute=True):
        assert services.start_due_rounds(timezone.now()) == 1
    seated = [x for b in Board.objects.filter(event=event, round__number=2) for x in b.seats]
    assert gone.pk not in seated and len([x for x in seated if x is not None]) == 5
