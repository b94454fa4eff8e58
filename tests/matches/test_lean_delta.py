"""The lean baseline's frames (bench/lean_move.py, issue 40): one delta for the whole table,
built and encoded once, and a frame of its own only for a seat a `Private` event shows more
to, so hidden information stays per seat."""

from __future__ import annotations

import orjson

from bench.lean_move import delta_frames
from gamekit.events import Private, encode


def test_public_events_make_one_frame_for_every_seat():
    stored = encode([{"type": "drew", "seat": 0, "poem": 5}, {"type": "kept", "seat": 0}])
    shared, own = delta_frames(7, "bot-6", stored, [1], 4)
    assert own == {}
    assert orjson.loads(shared) == {
        "type": "delta",
        "seq": 7,
        "ack": "bot-6",
        "events": [{"type": "drew", "seat": 0, "poem": 5}, {"type": "kept", "seat": 0}],
        "to_act": [1],
    }


def test_a_private_event_is_shown_only_to_its_seats():
    drew = Private({"type": "drew", "card": 88}, only=(2,), public={"type": "drew", "seat": 2})
    shared, own = delta_frames(3, "a", encode([drew, {"type": "turn", "seat": 3}]), [3], 4)
    assert list(own) == ["2"]  # a string key: msgpack keeps it through the Redis layer
    assert orjson.loads(own["2"])["events"] == [
        {"type": "drew", "card": 88},
        {"type": "turn", "seat": 3},
    ]
    assert orjson.loads(shared)["events"] == [
        {"type": "drew", "seat": 2},
        {"type": "turn", "seat": 3},
    ]
    assert "88" not in shared
