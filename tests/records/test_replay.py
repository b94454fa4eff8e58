"""The record's replay reaches exactly the states the live match reached: for many seeded
games of each game and mode, step by step (same events, same views, same outcome)."""

from __future__ import annotations

import json

import pytest

import gamekit
from matches import services
from matches.models import Action, Match
from records import replay
from tests.records.play import Clock, play_match

pytestmark = pytest.mark.django_db(transaction=True)

KARUTA_FAST = {"memorise_seconds": 0, "pace": "fast", "poem_set": 1}
CASES = [
    ("bozu", "cpu", {"players": 3}),
    ("bozu", "hotseat", {"players": 2}),
    ("bakudan", "cpu", {"players": 4}),
    ("bakudan", "hotseat", {"players": 3}),
    ("karuta", "cpu", {"mode": "competitive", **KARUTA_FAST}),
    ("karuta", "cpu", {"mode": "chirashi", "players": 3, **KARUTA_FAST}),
    ("karuta", "solo", {"mode": "solo", **KARUTA_FAST}),
    ("bozu", "friend", {"players": 3}),
    ("bakudan", "friend", {"players": 2}),
    ("karuta", "friend", {"mode": "competitive", **KARUTA_FAST}),
    ("karuta", "friend", {"mode": "chirashi", "players": 2, **KARUTA_FAST}),
]


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


def finished(slug, mode, game_settings, seed, monkeypatch):
    match, _token = services.create_match(slug, game_settings, mode)
    if mode == "friend":  # every seat joins by the invitation; the last join starts it
        for _seat in range(1, match.seats.count()):
            services.join(match.invite_code)
    held = [s.index for s in match.seats.all() if not s.is_cpu]
    live = play_match(match.id, held, Clock(monkeypatch), seed)
    return Match.objects.get(pk=match.id), live


def as_json(value):
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("slug", "mode", "game_settings"), CASES)
@pytest.mark.parametrize("seed", range(4))
def test_replay_reaches_the_live_states(slug, mode, game_settings, seed, monkeypatch):
    match, live = finished(slug, mode, game_settings, seed, monkeypatch)
    game = gamekit.registry.get(slug)
    document = replay.build(match)
    rows = {row.seq: row for row in match.actions.all()}
    assert document["steps"], "a finished match has steps"
    for step in document["steps"]:
        assert as_json(step["view"]) == as_json(game.record_view(live[step["seq"]]))
        row = rows[step["seq"]]
        if step["kind"] == "game":
            assert step["events"] == replay.revealed(row.events)
            assert step["action"] == row.action  # karuta's stamped touches as logged
    games = [r for r in rows.values() if r.kind == Action.Kind.GAME]
    assert len([s for s in document["steps"] if s["kind"] == "game"]) == len(games)
    last = game.load_state(match.state)
    assert as_json(document["steps"][-1]["view"]) == as_json(game.record_view(last))
    assert document["outcome"] == match.outcome
    assert game.outcome(last).to_json()["places"] == match.outcome["places"]


def test_room_steps_keep_the_events_and_words_the_players_saw():
    """The start and a resignation are steps with the room's events and their text in every
    language, as the live log showed them (`started`, `resigned`; issue 43)."""
    match, _token = services.create_match("bozu", {"players": 2}, "cpu")
    services.resign(match.id, [0])
    document = replay.build(Match.objects.get(pk=match.id))
    steps = {s["kind"]: s for s in document["steps"]}
    assert steps["start"]["events"] == [{"type": "started"}]
    assert steps["resign"]["events"] == [{"type": "resigned", "seat": 0}]
    assert steps["start"]["text"]["en"] == ["The game starts."]
    for kind in ("start", "resign"):
        texts = steps[kind]["text"]
        assert all(len(texts[lang]) == 1 for lang in ("ja", "en", "zh-hans")), texts
        assert len({texts[lang][0] for lang in ("ja", "en", "zh-hans")}) == 3, texts
