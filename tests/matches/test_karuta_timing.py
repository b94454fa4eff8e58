"""A timed game through the match layer (issue 18): arrival stamps, `at` and `part`, the
view released per frame, refusals logged, the server's judging-window pass and the CPU's
touch as due moves, with an injected clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import gamekit
from games.karuta import judge
from matches import cpu, frames, services, timed
from matches.epoch import epoch_ms, moment
from matches.latency import Link
from matches.models import Action, Match
from tests.matches.helpers import load

pytestmark = pytest.mark.django_db(transaction=True)

SETTINGS = {"mode": "competitive", "memorise_seconds": 0, "poem_set": 1, "pace": "fast"}


@pytest.fixture
def clock(monkeypatch):
    now = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    return now


def friends():
    match, token = services.create_match("karuta", SETTINGS, "friend")
    _match, _seat, other = services.join(match.invite_code)
    return Match.objects.get(pk=match.id), token, other


def live_first_card(create):
    """A new match whose first poem lies on the field (deals are random; half are)."""
    for _ in range(40):
        made = create()
        _match, state = load(made[0].id)
        if state["reading"]["poem"] in field(state):
            return made
    raise AssertionError("forty deals in a row began with a dead card")


def at_reading(match, t):
    """The server epoch ms at reading time t of the current state."""
    match, state = load(match.id)
    r = state["reading"]
    return timed.state_at(match) - r["since"] + t


def ms(moment):
    return epoch_ms(moment)


def field(state):
    return [c for rows in state["sides"] for row in rows for c in row]


def test_actions_are_stamped_by_the_server_whatever_the_client_sends(clock):
    match, _t0, _t1 = friends()
    match, state = load(match.id)
    start = timed.state_at(match)
    assert start == ms(clock[0])
    poem = state["reading"]["poem"]
    decided = state["reading"]["decided"]
    t = decided + 300
    arrived = at_reading(match, t) + 20
    clock[0] = moment(arrived + 3)
    forged = {"type": "touch", "card": field(state)[0], "t": t, "judge": "arrival",
              gamekit.STAMP: {"arrival": 0, "decided": 0, "owd": 0, "jitter": 0,
                              "server": True}}  # fmt: skip
    services.submit_action(match.id, [0], forged, arrived_ms=arrived, link=Link(25, 7))
    row = Action.objects.get(match=match, seq=match.seq + 1)
    assert row.action == {
        "type": "touch", "card": field(state)[0], "t": t,
        gamekit.STAMP: {"arrival": arrived - start, "decided": arrived + 3 - start,
                        "owd": 25, "jitter": 7, "server": False},
    }  # fmt: skip
    match, state = load(match.id)
    assert timed.state_at(match) == arrived + 3  # the new state began at the decision
    assert poem == state["reading"]["poem"] or state["reading"]["number"] == 2


def test_frames_carry_at_and_part_and_only_the_released_view(clock):
    match, _t0, _t1 = friends()
    match, state = load(match.id)
    r = state["reading"]
    frame = frames.build_frame(match.id, frames.Viewer.of([1]), None, fresh=True)
    assert frame.at == timed.state_at(match) and frame.part == 0
    assert frame.view["reading"]["poem"] is None and frame.view["reading"]["kana"] == []
    # The consumer arms its timer with it; it is never sent.
    assert frame.releases and frame.release_in_ms > 0 and "release_in_ms" not in frame.wire()
    parts = {}
    for t in sorted({0, r["decided"] - 151, r["decided"] - 150, r["decided"] + 5000}):
        clock[0] = moment(at_reading(match, t))
        frame = frames.build_frame(match.id, frames.Viewer.of([]), match.seq)
        parts[t] = frame.part
        shown = frame.view["reading"]
        assert (shown["poem"] is not None) == (t >= r["decided"] - 150)
        assert len(shown["kana"]) == sum(1 for x in r_kami_t(state) if x - 150 <= t)
    # A release moment (the poem named) lies between these two; parts never go back.
    assert parts[r["decided"] - 150] > parts[r["decided"] - 151]
    assert list(parts.values()) == sorted(parts.values())


def test_a_slower_link_is_sent_the_reading_earlier_by_its_one_way_delay(clock):
    # The lead is the same where the frame arrives: a connection 200 ms away gets each kana
    # 150 + 200 ms before it is due, one 20 ms away 150 + 20 ms before, and no link more
    # than the cap (a client can make its link look slower by holding pongs).
    match, _t0, _t1 = friends()
    match, state = load(match.id)
    decided = state["reading"]["decided"]

    def named(owd, t):
        clock[0] = moment(at_reading(match, t))
        frame = frames.build_frame(match.id, frames.Viewer.of([1], owd=owd), None, fresh=True)
        return frame.view["reading"]["poem"] is not None

    for owd in (None, 20, 200, timed.MAX_LINK_LEAD_MS, 5000):
        lead = 150 + min(owd or 0, timed.MAX_LINK_LEAD_MS)
        assert named(owd, decided - lead) and not named(owd, decided - lead - 1)


def r_kami_t(state):
    return engine_view(state)["reading"]["kami"]["t"]


def engine_view(state):
    return gamekit.registry.get("karuta").view(state, None)


def test_an_impossible_touch_is_refused_and_logged_without_anything_personal(clock):
    match, token, _other = friends()
    match, state = load(match.id)
    t = state["reading"]["decided"] + 200
    arrived = at_reading(match, t) + 900  # far later than its claim allows
    clock[0] = moment(arrived)
    action = {"type": "touch", "card": field(state)[0], "t": t}
    with pytest.raises(judge.ImpossibleTouchError):
        services.submit_action(match.id, [0], action, arrived_ms=arrived, link=Link(5))
    row = Action.objects.filter(match=match).order_by("-seq").first()
    assert row.kind == "room" and row.action == {"type": "refused"}
    assert row.events == [
        {"type": "refused", "seat": 0, "code": "impossible_touch", "reason": "late"}
    ]
    assert token not in str(row.events) and "127.0.0.1" not in str(row.events)
    match, after = load(match.id)
    assert after == state  # refused: the game did not move


def test_the_server_passes_the_slower_seat_after_its_window_and_awards_the_card(clock):
    match, _t0, _t1 = live_first_card(friends)
    match, state = load(match.id)
    r = state["reading"]
    # Seat 1 has a measured delay of 70 ms and a jitter of 30 (from its arrangement), seat 0
    # takes at T.
    clock[0] = moment(at_reading(match, -200))
    rows = state["sides"][1]
    services.submit_action(match.id, [1], {"type": "arrange", "rows": rows, "t": -200},
                           arrived_ms=at_reading(match, -200), link=Link(70, 30))  # fmt: skip
    T = r["decided"] + 250
    clock[0] = moment(at_reading(match, T) + 4)
    services.submit_action(match.id, [0], {"type": "touch", "card": r["poem"], "t": T},
                           arrived_ms=at_reading(match, T) + 3, link=Link(3))  # fmt: skip
    match, state = load(match.id)
    due = at_reading(match, T + 70 + 30 + judge.LATE_MARGIN_MS)
    assert ms(match.due_at) == due
    clock[0] = moment(due - 1)
    assert services.advance(match.id) is None  # the window is still open
    clock[0] = moment(due)
    assert services.advance(match.id) == match.seq + 1
    row = Action.objects.get(match=match, seq=match.seq + 1)
    assert row.actor == "system" and row.seat == 1 and row.action["type"] == "pass"
    result = next(e for e in row.events if e["type"] == "result")
    assert result["taker"] == 0 and result["t"] == T and result["reaches"] == [[0, T]]


def test_a_cpus_touch_is_due_at_its_planned_time_and_played_then(clock):
    match, _token = live_first_card(
        lambda: services.create_match("karuta", SETTINGS, "cpu", "meijin")
    )
    match, state = load(match.id)
    game = gamekit.registry.get("karuta")
    plan = cpu.plan(game, match, state, 1, "meijin")
    assert plan["type"] == "touch"
    due = at_reading(match, plan["t"])
    assert ms(match.due_at) == due
    clock[0] = moment(due) - timedelta(milliseconds=1)
    assert services.advance(match.id) is None
    # Another seat's move meanwhile does not redraw the plan.
    services.submit_action(match.id, [0], {"type": "arrange", "rows": state["sides"][0],
                           "t": -1}, arrived_ms=ms(clock[0]))  # fmt: skip
    match = Match.objects.get(pk=match.id)
    assert ms(match.due_at) == due
    clock[0] = moment(due)
    assert services.advance(match.id) == match.seq + 1
    row = Action.objects.get(match=match, seq=match.seq + 1)
    assert (
        row.actor == "cpu" and row.action["t"] == plan["t"] and row.action["card"] == plan["card"]
    )


def test_the_arrival_judge_setting_is_logged_with_each_touch(clock, settings):
    settings.KARUTA_JUDGE = "arrival"
    match, _t0, _t1 = friends()
    match, state = load(match.id)
    t = state["reading"]["decided"] + 300
    clock[0] = moment(at_reading(match, t) + 50)
    touch = {"type": "touch", "card": field(state)[0], "t": t}
    services.submit_action(match.id, [0], touch, arrived_ms=at_reading(match, t) + 40)
    row = Action.objects.get(match=match, seq=match.seq + 1)
    assert row.action["judge"] == "arrival"
    match, after = load(match.id)
    assert after["reading"]["touches"][0] == [[field(state)[0], t + 40]]  # by its arrival
