"""The reading released just in time (games/karuta/release.py), over many seeded readings:
nothing is in a released view before its time minus the lead, everything is once due, the
release moments are exactly where it changes, and what is released never depends on the
poem being read before its deciding kana — the voice's clips included (which clip plays
when: an upper-verse clip with its first kana, the lower verse's once the poem is known),
for every seat and for spectators."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from games.karuta import engine, release, voice
from tests.games.karuta import voicefake

LEAD = 150


def released(view, elapsed, lead=LEAD, clips_of=voicefake.reading_clips):
    return release.released(view, elapsed, lead, clips_of)


def play_readings(state, count, touch):
    """The states at the start of up to `count` readings in a row: in each, `touch(state)`
    gives a (seat, action) or None, then every seat still to act passes; cards are sent."""
    found = []
    while state["phase"] != "over" and len(found) < count:
        if state["phase"] == "reading":
            found.append(engine.clone(state))
            number = state["reading"]["number"]
            move = touch(state)
            if move is not None:
                state, _ = engine.apply(state, *move)
            while state["phase"] == "reading" and state["reading"]["number"] == number:
                state, _ = engine.apply(state, engine.to_act(state)[0], {"type": "pass"})
        while state["phase"] == "send":
            chooser = engine.to_act(state)[0]  # genpei: the taker, for its team
            card = engine.side_cards(state, state["send"]["from"])[0]
            state, _ = engine.apply(state, chooser, {"type": "send", "card": card})
    return found


def readings(mode: str, seed: int, count: int = 6):
    """States at the start of `count` readings of a seeded game (the seats take or pass)."""
    players = {"competitive": 2, "chirashi": 3, "solo": 1, "genpei": 8}[mode]
    settings = {
        "mode": mode,
        "players": players,
        "memorise_seconds": 0,
        "pace": random.Random(seed).choice(["slow", "standard", "fast", "very_fast", 9.5]),
        **({"teams": [4, 4]} if mode == "genpei" else {}),
    }
    state = engine.new_state(settings, [{"is_cpu": False}] * players, seed)
    rng = random.Random(seed)

    def touch(state):
        # A touch by someone (a take, a wrong card, or nothing).
        r = state["reading"]
        seat = rng.choice(r["active"])
        cards = engine.field_cards(state)
        card = rng.choice([r["poem"]] if r["poem"] in cards and rng.random() < 0.7 else cards)
        t = rng.randint(r["decided"], r["close"])
        return seat, {"type": "touch", "card": card, "t": t}

    return play_readings(state, count, touch)


def with_touches(state, rng):
    """The same reading with a few touches recorded (their times anywhere in it)."""
    state = engine.clone(state)
    r = state["reading"]
    for seat in r["active"][:2]:
        r["touches"][seat].append([engine.field_cards(state)[0], rng.randint(0, r["close"])])
    return state


def probes(times):
    return sorted({-5000, 0, *times, *(t - 1 for t in times), *(t + 1 for t in times), 10**6})


@pytest.mark.parametrize("mode", ["competitive", "chirashi", "solo", "genpei"])
def test_nothing_before_its_time_and_everything_once_due(mode):
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        for state in readings(mode, seed):
            state = with_touches(state, rng)
            full = engine.view(state, None)
            r = full["reading"]
            times = release.release_times(full, LEAD)
            for elapsed in probes(times):
                shown = released(full, elapsed, LEAD)
                s = shown["reading"]
                now = elapsed - r["t0"]
                upper = [
                    [k, t, said]
                    for k, t, said in zip(
                        r["kami"]["kana"], r["kami"]["t"], r["kami"]["said"], strict=True
                    )
                ]
                assert s["kana"] == [k for k in upper if k[1] - LEAD <= now]
                if r["shimo"]:
                    assert [k[:2] for k in s["shimo"]["kana"]] == [
                        [k, t]
                        for k, t in zip(r["shimo"]["kana"], r["shimo"]["t"], strict=True)
                        if t - LEAD <= now
                    ]
                named = r["decided"] - LEAD <= now
                assert (s["poem"] is not None) == named
                for key in ("kimariji", "static_kimariji", "decided", "close", "end"):
                    assert (s[key] is not None) == named
                if not named:
                    # Nothing in the whole frame names it: not the verse, not the lower verse.
                    text = json.dumps(shown["reading"], ensure_ascii=False)
                    poem = engine.catalogue.poem(r["poem"])
                    assert poem.shimo_kana.split()[0] not in text
                assert s["touches"] == [x for x in r["touches"] if x[2] <= now]
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("mode", ["competitive", "chirashi", "genpei"])
def test_the_release_moments_are_exactly_where_the_view_changes(mode):
    for seed in range(4):
        rng = random.Random(seed)
        for state in readings(mode, seed, count=3):
            full = engine.view(with_touches(state, rng), 0)
            times = release.release_times(full, LEAD)
            assert times == sorted(set(times))
            for before, after in itertools.pairwise(times):
                at_start = released(full, before, LEAD)
                assert released(full, after - 1, LEAD) == at_start
                assert released(full, after, LEAD) != at_start


def test_a_released_view_does_not_depend_on_the_poem_before_its_deciding_kana():
    """あさぼらけ あ… (31) and あさぼらけ う… (64) share five kana: until the sixth is due, the
    two readings are sent alike, to the byte."""
    sides = [[[31, 1], [], []], [[64, 2], [], []]]
    a = engine.situation(sides, queue=[31, 64, 1, 2, 3])
    b = engine.situation(sides, queue=[64, 31, 1, 2, 3])
    va, vb = engine.view(a, 0), engine.view(b, 0)
    sixth = va["reading"]["kami"]["t"][5]
    assert sixth == vb["reading"]["kami"]["t"][5]
    t0 = va["reading"]["t0"]
    for elapsed in range(0, t0 + sixth - LEAD, 37):
        assert released(va, elapsed, LEAD) == released(vb, elapsed, LEAD)
    after = t0 + sixth - LEAD
    assert released(va, after, LEAD) != released(vb, after, LEAD)


def test_eight_genpei_seats_and_a_spectator_are_sent_two_rival_readings_alike():
    """Genpei, four against four: for every seat and a spectator, あさぼらけ あ… (31) and
    あさぼらけ う… (64) are sent byte for byte alike, voice included, until the sixth kana is
    due (each side holds one of them; a teammate's touch is no clue either: none is made)."""
    sides = [[[31, 1], [], []], [[64, 2], [], []]]
    a = engine.situation(sides, queue=[31, 64, 1, 2, 3], teams=(4, 4))
    b = engine.situation(sides, queue=[64, 31, 1, 2, 3], teams=(4, 4))
    for state in (a, b):
        state["settings"]["pace"] = "standard"
    compared = 0
    for viewer in [None, *range(8)]:
        va, vb = engine.view(a, viewer), engine.view(b, viewer)
        t0 = va["reading"]["t0"]
        sixth = t0 + va["reading"]["kami"]["t"][5] - LEAD
        for elapsed in range(0, sixth, 53):
            for source in SOURCES.values():
                shown_a = released(va, elapsed, clips_of=source)
                assert shown_a == released(vb, elapsed, clips_of=source)
                assert shown_a["reading"]["poem"] is None
                compared += 1
        assert released(va, sixth) != released(vb, sixth)
    assert compared > 9 * 100


def test_the_full_view_is_not_changed_by_releasing_it():
    state = readings("chirashi", 3, count=1)[0]
    full = engine.view(state, 1)
    copy = json.loads(json.dumps(full))
    released(full, 100, LEAD)
    assert full == copy


def clip_release(clip, r):
    """When (ms after the state began) the release rule lets a clip out: with its first kana
    (upper verse), with the poem (lower verse), from the start (the preamble)."""
    if clip.part == "kami":
        return r["t0"] + r["kami"]["t"][clip.first_kana] - LEAD
    if clip.part in ("shimo_read", "shimo_again"):
        return r["t0"] + r["decided"] - LEAD
    return -(10**9)


# The voice's own plan (games/karuta/voice: its clips' ids before a build are stand-ins
# named after what they voice) and the fake that follows the contract's shape.
SOURCES = {"voice": voice.reading_clips, "fake": voicefake.reading_clips}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("mode", ["competitive", "chirashi", "solo", "genpei"])
def test_no_frame_releases_a_clip_before_its_kana_is_released(mode, source):
    """Every seat and a spectator: the clips in a frame are exactly those whose release time
    has come (so none early, and each as soon as due), in play order, with what the page
    needs to play them; and each release is a moment the platform sends a frame at."""
    checked = 0
    for seed in range(6):
        for state in readings(mode, seed, count=4):
            s = state["settings"]
            if not isinstance(s["pace"], str):
                continue
            seats = [None, *range(len(state["seats"]))]
            for viewer in seats:
                full = engine.view(state, viewer)
                r = full["reading"]
                clips = SOURCES[source](
                    engine.reading_mode(mode),
                    r["poem"],
                    r["prev"],
                    s["pace"],
                    engine.lower_reads(s),
                )
                times = release.release_times(full, LEAD)
                for clip in clips:
                    at = clip_release(clip, r)
                    assert at < 0 or at in times  # a frame goes out then
                for elapsed in probes(times):
                    shown = released(full, elapsed, LEAD, SOURCES[source])
                    sent = shown["reading"]["voice"]
                    due = [c for c in clips if clip_release(c, r) <= elapsed]
                    assert [c["id"] for c in sent] == [c.id for c in due]
                    # The next upper-verse clip is named ahead, to be fetched in time.
                    coming = [c for c in clips if c.part == "kami" and c not in due]
                    if coming:
                        assert coming[0].id in {c["id"] for c in shown["voice_next"]}
                    for entry, clip in zip(sent, due, strict=True):
                        assert entry == {
                            "id": clip.id,
                            "file": clip.file,
                            "part": clip.part,
                            "start": clip.start,
                            "duration": clip.duration,
                            "onsets": list(clip.onsets),
                        }
                    checked += 1
    assert checked > 300


def test_the_preamble_is_voiced_from_the_start_and_the_upper_verse_not_before_its_kana():
    state = readings("competitive", 1, count=1)[0]
    state["settings"]["pace"] = "standard"
    full = engine.view(state, 0)
    assert full["reading"]["prev"] == 0  # the first reading: the 序歌
    sent = released(full, 0)["reading"]["voice"]
    assert [c["part"] for c in sent] == ["joka", "joka_shimo"]
    r = full["reading"]
    first_kami = released(full, r["t0"] - LEAD)["reading"]["voice"]
    assert first_kami[-1]["part"] == "kami" and first_kami[-1]["start"] == 0
    assert released(full, r["t0"] - LEAD - 1)["reading"]["voice"] == sent


def test_a_custom_pace_is_not_voiced():
    state = readings("chirashi", 2, count=1)[0]
    state["settings"]["pace"] = 9.5
    full = engine.view(state, 0)
    assert released(full, 10**6)["reading"]["voice"] == []


@pytest.mark.parametrize("source", SOURCES)
def test_the_two_readings_sound_alike_until_the_deciding_kana_and_a_per_poem_clip_is_caught(
    source,
):
    """あさぼらけ あ… (31) and あさぼらけ う… (64): their frames, clips included, are the same
    bytes until the sixth kana is due; a voice with one clip per poem would tell them apart
    from the first kana (the check above would fail on it)."""
    sides = [[[31, 1], [], []], [[64, 2], [], []]]
    a = engine.situation(sides, queue=[31, 64, 1, 2, 3])
    b = engine.situation(sides, queue=[64, 31, 1, 2, 3])
    for state in (a, b):
        state["settings"]["pace"] = "standard"
    va, vb = engine.view(a, None), engine.view(b, None)
    t0 = va["reading"]["t0"]
    sixth = t0 + va["reading"]["kami"]["t"][5] - LEAD
    first = t0 - LEAD
    clips_of = SOURCES[source]
    assert [c["part"] for c in released(va, first, clips_of=clips_of)["reading"]["voice"]][
        -1
    ] == "kami"
    for elapsed in range(0, sixth, 37):
        assert released(va, elapsed, clips_of=clips_of) == released(vb, elapsed, clips_of=clips_of)
    assert released(va, sixth, clips_of=clips_of) != released(vb, sixth, clips_of=clips_of)

    def leaky(*args):
        return voicefake.reading_clips(*args, per_poem=True)

    assert released(va, first, clips_of=leaky) != released(vb, first, clips_of=leaky)


def taken_in_turn(mode, seed, count):
    """The starts of `count` readings in a row, seat 0 taking each read card."""
    pace = ["slow", "standard", "fast", "very_fast"][seed % 4]
    settings = {"mode": mode, "players": 2, "memorise_seconds": 0, "pace": pace}
    state = engine.new_state(settings, [{"is_cpu": False}] * 2, seed)

    def take(state):
        r = state["reading"]
        if r["poem"] not in engine.field_cards(state):
            return None
        return 0, {"type": "touch", "card": r["poem"], "t": r["decided"] + 300}

    return play_readings(state, count, take)


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("mode", ["competitive", "chirashi"])
def test_the_clips_the_next_reading_opens_with_are_named_once_public(mode, source):
    """`voice_next`: no lower verse before the poem is known; from then on, exactly the
    preamble clips the next reading will play (the read poem's lower verse)."""
    clips_of = SOURCES[source]
    compared = 0
    for seed in range(4):
        for state, after in itertools.pairwise(taken_in_turn(mode, seed, count=4)):
            full, nxt = engine.view(state, None), engine.view(after, None)
            r, n = full["reading"], nxt["reading"]
            if n["number"] != r["number"] + 1:
                continue
            known_at = r["t0"] + r["decided"] - LEAD
            early = released(full, known_at - 1, clips_of=clips_of)["voice_next"]
            assert [c for c in early if c["part"] != "kami"] == []  # (openings: below)
            opens = released(nxt, 0, clips_of=clips_of)["reading"]["voice"]
            public = [c for c in opens if c["part"] in release.PREAMBLE_PARTS]
            assert public and public[0]["part"] == "shimo"
            ahead = released(full, known_at, clips_of=clips_of)["voice_next"]
            ahead = [c for c in ahead if c["part"] != "kami"]
            assert [c["id"] for c in ahead] == [c["id"] for c in public]
            compared += 1
    assert compared >= 10


@pytest.mark.parametrize("source", SOURCES)
def test_while_memorising_the_joka_is_named_ahead(source):
    clips_of = SOURCES[source]
    settings = {"mode": "competitive", "players": 2, "memorise_seconds": 60, "pace": "fast"}
    state = engine.new_state(settings, [{"is_cpu": False}] * 2, 5)
    assert state["phase"] == "memorise"
    ahead = released(engine.view(state, 0), 0, clips_of=clips_of)["voice_next"]
    for seat in (0, 1):
        state, _ = engine.apply(state, seat, {"type": "ready"})
    opens = released(engine.view(state, 0), 0, clips_of=clips_of)["reading"]["voice"]
    # The 序歌 first; then every poem's opening clip (test_ready_first.py).
    assert [c["part"] for c in ahead[:2]] == ["joka", "joka_shimo"]
    assert [c["id"] for c in ahead[:2]] == [c["id"] for c in opens[:2]]
    assert {c["part"] for c in ahead[2:]} == {"kami"}


@pytest.mark.parametrize("source", SOURCES)
def test_every_poems_opening_clip_is_named_before_the_first_kana_alike_for_any_poem(source):
    """Before the first kana, `voice_next` lists the opening clip of all 100 poems: the same
    list whichever poem is read (so fetching it tells nothing), holding this reading's."""
    clips_of = SOURCES[source]
    sides = [[[31, 1], [], []], [[64, 2], [], []]]
    lists = []
    for queue in ([31, 64, 1, 2, 3], [2, 31, 64, 1, 3]):
        state = engine.situation(sides, queue=queue)
        state["settings"]["pace"] = "fast"
        full = engine.view(state, 1)
        r = full["reading"]
        before = released(full, r["t0"] - LEAD - 1, clips_of=clips_of)
        first = released(full, r["t0"] - LEAD, clips_of=clips_of)
        opening = next(c for c in first["reading"]["voice"] if c["part"] == "kami")
        assert opening["id"] in {c["id"] for c in before["voice_next"]}
        later = [c for c in first["reading"]["voice"] if c["part"] == "kami"][1:]
        full_kami = [c for c in clips_of("competitive", queue[0], 0, "fast", 1) if c.part == "kami"]
        if len(full_kami) > 1 and not later:
            assert full_kami[1].id in {c["id"] for c in first["voice_next"]}
        lists.append(before["voice_next"])
    assert lists[0] == lists[1]
    firsts = {
        next(c for c in clips_of("competitive", p, None, "fast", 1) if c.part == "kami").id
        for p in range(1, 101)
    }
    assert {c["id"] for c in lists[0]} == firsts
