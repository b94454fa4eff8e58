"""Frames built from parts their viewers share are each viewer's own frame once encoded
(frames.encode: the same value json.dumps would write), and never carry another seat's
secrets."""

from __future__ import annotations

import json

import pytest

from matches import frames, services, snapshots
from matches.models import Match
from tests.support.game_settings import bozu_settings

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit fills the snapshots


def full_friend_match(slug: str, settings: dict, players: int) -> Match:
    match, _token = services.create_match(slug, settings, "friend")
    for _ in range(players - 1):
        services.join(match.invite_code)
    services.presence(match.id, range(players), +1)
    return match


def play(match: Match, moves: int, action) -> int:
    game = services.get_game(match)
    for _ in range(moves):
        snap = snapshots.current(match.id)
        seat = next(iter(game.to_act(snap.state)))
        services.submit_action(match.id, [seat], action(snap.state, seat), seat=seat)
    return snapshots.peek(match.id).match.seq


def frames_of(match: Match, seq: int, viewers, since) -> list[frames.StateFrame]:
    return [frames.cached_frame(match.id, frames.Viewer.of(held), since, seq) for held in viewers]


def plain(frame: frames.StateFrame, **extra) -> object:
    """The frame as the standard library's json writes and reads it back."""
    body = {**frame.wire(), **extra}
    return json.loads(json.dumps(body, ensure_ascii=False, separators=(",", ":")))


def test_hidden_hands_each_viewer_gets_exactly_its_own_frame_and_no_other_hand():
    match = full_friend_match("hiddenhand", {"players": 3, "turns": 30}, 3)
    seq = play(match, 7, lambda state, seat: {"type": "draw"})
    state = snapshots.peek(match.id).state
    viewers = [[0], [1], [2], []]  # three seats and a spectator
    for since in (seq - 1, seq - 4, None):
        built = frames_of(match, seq, viewers, since)
        for held, frame in zip(viewers, built, strict=True):
            text = frames.encode(frame)
            assert json.loads(text) == plain(frame)  # the same value as json.dumps writes
            with_ack = frames.encode(frame, {"ack": {"seq": seq}})
            assert json.loads(with_ack) == plain(frame, ack={"seq": seq})
            assert list(json.loads(with_ack))[-1] == "ack"  # extra keys after the frame's
            yours = [s["index"] for s in json.loads(text)["match"]["seats"] if s["yours"]]
            assert yours == held
            for seat, hand in enumerate(state["hands"]):
                if seat not in held:
                    for card in hand:
                        assert card not in text, (held, seat)
            for card in state["deck"]:
                assert card not in text


def test_viewers_who_see_the_same_log_share_one_list():
    match = full_friend_match("bozu", bozu_settings(4), 4)
    seq = play(match, 5, lambda state, seat: {"type": "draw"})
    built = frames_of(match, seq, [[0], [1], [2], [3]], seq - 2)
    assert all(f.events is built[0].events for f in built)
    for frame in built:
        assert json.loads(frames.encode(frame)) == plain(frame)
    # A later seat change is a new snapshot, with nothing of the old one's cache.
    services.presence(match.id, [2], -1)
    after = frames.cached_frame(match.id, frames.Viewer.of([0]), seq - 2, seq)
    seats = json.loads(frames.encode(after))["match"]["seats"]
    assert seats[2]["connected"] is False and seats[0]["yours"] is True
