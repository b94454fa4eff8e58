"""What the viewers of one snapshot share is built once and stays each viewer's own frame:
the room once per holding (only `due_in_ms` taken at each frame's moment), the seats rebuilt
when they go stale, the log lines in words carried from one snapshot to the next (only a new
row's are new), and each socket's words in its own language."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import orjson
import pytest
from channels.db import database_sync_to_async
from django.utils import timezone, translation

from matches import frames, services, snapshots
from matches.snapshots import KEEP_ROWS, TEXTS_KEPT, Snapshot, texts_after
from tests.matches.helpers import Client
from tests.matches.test_frame_encoding import full_friend_match, play
from tests.support.game_settings import bozu_settings

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit fills the snapshots

HOLDINGS = [(0,), (0,), (2,), (), (1, 3)]


def draw(state, seat):
    return {"type": "draw"}


def frame(match, held, since, seq):
    # The language named: what is active in this thread depends on the tests run before.
    return frames.cached_frame(match.id, frames.Viewer.of(held), since, seq, lang="ja")


def as_room_info(snap, held, now):
    """The room as `room_info` writes it, from nothing cached (what every frame once built)."""
    game = services.get_game(snap.match)
    to_act = list(game.to_act(snap.state)) if snap.match.status == "playing" else []
    handles = snap.handles
    info = frames.room_info(snap.match, [], set(held), to_act, now, str(game.on_leave))
    info["seats"] = [
        frames.seat_public(snap.match, s, held, now, handles.get(s.index)) for s in snap.seats
    ]
    return info


def test_one_room_per_holding_each_as_room_info_writes_it_and_due_in_ms_at_each_moment():
    match = full_friend_match("bozu", bozu_settings(4), 4)
    seq = play(match, 3, draw)
    snap = snapshots.peek(match.id)
    now = timezone.now()
    with mock.patch("django.utils.timezone.now", lambda: now):
        built = [frame(match, held, seq - 1, seq) for held in HOLDINGS]
        for held, f in zip(HOLDINGS, built, strict=True):
            # Byte for byte: same keys, same order, same values.
            assert orjson.dumps(f.match) == orjson.dumps(as_room_info(snap, held, now))
    assert built[0].match is built[1].match  # one room for one holding
    assert "invite_code" in built[0].match and "invite_code" not in built[3].match
    assert [s["index"] for s in built[4].match["seats"] if s["yours"]] == [1, 3]

    # A server move due: the one field that moves with the clock is taken at each frame.
    snap.match.due_at = now + timedelta(seconds=5)
    for later in (now, now + timedelta(milliseconds=1250)):
        with mock.patch("django.utils.timezone.now", lambda later=later: later):
            f = frame(match, (2,), seq - 1, seq)
            assert f.match["due_in_ms"] == 5000 - (later - now) // timedelta(milliseconds=1)
            assert orjson.dumps(f.match) == orjson.dumps(as_room_info(snap, (2,), later))


def test_the_seats_shown_are_rebuilt_when_stale_for_every_holding(monkeypatch):
    match = full_friend_match("bozu", bozu_settings(4), 4)
    seq = play(match, 2, draw)
    snap = snapshots.peek(match.id)
    before = {held: frame(match, held, seq - 1, seq).match for held in HOLDINGS}
    assert all(room["seats"][2]["connected"] for room in before.values())
    # Seat 2's person goes away without a new snapshot (their lease runs out elsewhere).
    snap.seats[2].connections, snap.seats[2].disconnected_since = 0, timezone.now()
    assert frame(match, (0,), seq - 1, seq).match is before[(0,)]  # fresh enough: kept
    monkeypatch.setattr(frames, "SEATS_FRESH_S", -1.0)  # stale at once
    for held in HOLDINGS:
        room = frame(match, held, seq - 1, seq).match
        assert room["seats"][2]["connected"] is False, held
        assert [s["index"] for s in room["seats"] if s["yours"]] == list(held)


def test_log_words_are_carried_to_the_next_snapshot_only_a_new_row_is_described(monkeypatch):
    match = full_friend_match("bozu", bozu_settings(4), 4)
    seq = play(match, 3, draw)
    first = frame(match, (0,), seq - 1, seq)
    game = services.get_game(match)
    described = []
    original = type(game).describe_events

    def counting(self, events):
        described.append(events)
        return original(self, events)

    monkeypatch.setattr(type(game), "describe_events", counting)
    later = play(match, 1, draw)
    behind = frame(match, (0,), seq - 1, later)  # two rows behind: one of them new
    assert len(described) == 1 and described[0] == behind.events[-1]["events"]
    assert behind.events[0]["texts"] is first.events[0]["texts"]
    # What a snapshot read from nothing says in words, for every row.
    snapshots.forget(match.id)
    fresh = frames.build_frame(match.id, frames.Viewer.of((0,)), seq - 1, lang="ja")
    assert fresh.events == behind.events


def test_carried_words_are_pruned_to_the_rows_kept():
    snap = Snapshot(None, [], None, [])
    snap.texts.update({(seq, "ja", None): [str(seq)] for seq in range(1, TEXTS_KEPT + 1)})
    assert texts_after(snap, TEXTS_KEPT) is snap.texts  # small: the same dict goes on
    snap.texts[(TEXTS_KEPT + 1, "en", None)] = ["x"]
    kept = texts_after(snap, TEXTS_KEPT + 1)
    assert sorted({key[0] for key in kept}) == list(
        range(TEXTS_KEPT + 2 - KEEP_ROWS, TEXTS_KEPT + 2)
    )
    assert texts_after(None, 5) == {}


@pytest.mark.anyio
@pytest.mark.usefixtures("close_db_threads")
async def test_each_socket_gets_the_log_in_its_own_language_on_every_notice():
    match, token = await database_sync_to_async(services.create_match)(
        "bozu", bozu_settings(2), "hotseat"
    )
    player = Client(match.id, token)
    await player.connect()
    english = Client(match.id, headers=[(b"cookie", b"django_language=en")])
    await english.connect()
    chinese = Client(match.id)  # Japanese by its headers, Chinese by its hello
    await chinese.connect(lang="zh-hans")
    japanese = Client(match.id)
    await japanese.connect()
    for i in range(3):
        seat = player.room["to_act"][0]
        await player.send(
            {"type": "act", "action": draw(None, seat), "action_id": f"d{i}", "seat": seat}
        )
        await player.until(lambda f: f["type"] == "ack")
        game = services.get_game(match)
        for client, lang in ((english, "en"), (chinese, "zh-hans"), (japanese, "ja")):
            state = await client.until(lambda f: f["type"] == "state" and f["events"])
            for entry in state["events"]:
                with translation.override(lang):
                    assert entry["texts"] == game.describe_events(entry["events"]), lang
    for client in (player, english, chinese, japanese):
        await client.close()


def test_viewers_of_the_same_content_share_one_frame_and_one_encoding(monkeypatch):
    match = full_friend_match("bozu", bozu_settings(4), 4)
    seq = play(match, 3, draw)
    # Read afresh, with every recent row: a snapshot holding fewer rows than the three makes
    # the frame of a viewer two rows behind a reset, as a new viewer's is (shared with it).
    snapshots.current(match.id, fresh=True)
    spectators = [frame(match, (), seq - 1, seq) for _ in range(3)]
    assert all(f is spectators[0] for f in spectators)
    text = frames.encode(spectators[0])
    assert frames.encode(spectators[2]) is text  # encoded once
    with_ack = frames.encode(spectators[1], {"ack": {"seq": seq}})
    assert orjson.loads(with_ack) == {**orjson.loads(text), "ack": {"seq": seq}}
    assert frames.encode(spectators[1]) is text
    # Another seat, another seq seen, another language: each its own frame.
    assert frame(match, (0,), seq - 1, seq) is frame(match, (0,), seq - 1, seq)
    others = [
        frame(match, (0,), seq - 1, seq),
        frame(match, (), seq - 2, seq),
        frame(match, (), None, seq),
        frames.cached_frame(match.id, frames.Viewer.of(()), seq - 1, seq, lang="en"),
    ]
    assert len({id(f) for f in [spectators[0], *others]}) == 5
    assert others[3].events[0]["texts"] != spectators[0].events[0]["texts"]
    # The seats shown gone stale: built again.
    monkeypatch.setattr(frames, "SEATS_FRESH_S", -1.0)
    again = frame(match, (), seq - 1, seq)
    assert again is not spectators[0] and frames.encode(again) == text
    # A move due: each frame is taken at its own moment.
    monkeypatch.setattr(frames, "SEATS_FRESH_S", 60.0)
    snapshots.peek(match.id).match.due_at = timezone.now() + timedelta(seconds=5)
    assert frame(match, (), seq - 1, seq) is not frame(match, (), seq - 1, seq)


def test_a_timed_game_s_frames_are_each_taken_at_their_own_moment():
    genpei = {"mode": "genpei", "teams": [2, 2], "memorise_seconds": 0}
    match, _token = services.create_match("karuta", genpei, "friend")
    for group in (1, 0, 1):
        services.join(match.invite_code, group=group)
    services.presence(match.id, range(4), +1)
    seq = snapshots.peek(match.id).match.seq
    first, second = (frame(match, (), seq - 1, seq) for _ in range(2))
    assert first.releases and first is not second
