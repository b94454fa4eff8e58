"""settings.ready_first (issue 43): the first reading waits until the pages can play it.
With no memorisation time a game that has a person seated still opens with the memorise
phase, which ends on every seat's "ready" (a page sends it once its audio runs and the
opening clips are decoded) or, at the latest, READY_COLD_MS after it began; the first
reading's t = 0 then lies at least FIRST_LEAD_MS after its state begins. Without the
setting (stored games, hand-built states) nothing changes. The frames of the phase name
the clips the first reading may open with, the same whichever poem it is."""

from __future__ import annotations

import pytest

import gamekit
from games.karuta import engine, reading
from games.karuta.forms import KarutaSettingsForm
from tests.games.karuta.test_release import SOURCES, released

READY = {"type": "ready"}
PACES = ("slow", "standard", "fast", "very_fast")


def stamped(action, decided):
    stamp = {"arrival": decided, "decided": decided, "owd": None, "jitter": None}
    return {**action, gamekit.STAMP: {**stamp, "server": True}}


def settings(mode, pace="standard", **more):
    players = {"solo": 1, "chirashi": 2, "competitive": 2}[mode]
    return {"mode": mode, "players": players, "pace": pace, "memorise_seconds": 0, **more}


def seats(mode, cpus=True):
    n = {"solo": 1, "chirashi": 2, "competitive": 2}[mode]
    return [{"is_cpu": False}] + [{"is_cpu": cpus}] * (n - 1)


@pytest.mark.parametrize("mode", ["solo", "chirashi", "competitive"])
def test_without_the_setting_memorise_zero_reads_at_once_as_before(mode):
    s = engine.new_state(settings(mode), seats(mode), seed=3)
    assert s["phase"] == "reading"
    prev = reading.JOKA if mode == "competitive" else None
    assert s["reading"]["since"] == reading.preamble(prev, "standard")[0]["start"]


@pytest.mark.parametrize("mode", ["solo", "chirashi"])
@pytest.mark.parametrize("pace", PACES)
def test_the_first_reading_waits_for_ready_then_starts_after_the_first_lead(mode, pace):
    s = engine.new_state(settings(mode, pace, ready_first=True), seats(mode), seed=11)
    assert s["phase"] == "memorise" and s["reading"] is None
    assert engine.to_act(s) == tuple(range(len(s["seats"])))
    for seat in range(len(s["seats"])):
        s, events = engine.apply(s, seat, READY)
    assert s["phase"] == "reading" and events[-1]["type"] == "reading"
    breath = -reading.preamble(None, pace)[0]["start"]
    t0 = engine.view(s, 0)["reading"]["t0"]
    assert t0 == max(breath, engine.FIRST_LEAD_MS)  # silence, then the breath as before
    if pace in ("fast", "very_fast"):  # the paces whose breath alone is shorter
        assert breath < engine.FIRST_LEAD_MS == t0
    # The lead covers the release lead and the longest link lead (platform/matches/timed.py).
    assert engine.FIRST_LEAD_MS > 150 + 400


def test_only_the_first_reading_gets_the_lead_and_a_competitive_joka_is_longer():
    s = engine.new_state(settings("solo", ready_first=True), seats("solo"), seed=5)
    s, _ = engine.apply(s, 0, READY)
    s, _ = engine.apply(s, 0, {"type": "pass", "reading": 1})
    assert s["reading"]["number"] == 2
    assert s["reading"]["since"] == reading.preamble(s["reading"]["prev"], "standard")[0]["start"]
    c = engine.new_state(settings("competitive", ready_first=True), seats("competitive"), seed=5)
    c, _ = engine.apply(c, 0, READY)
    c, _ = engine.apply(c, 1, READY)
    assert c["reading"]["since"] == reading.preamble(reading.JOKA, "standard")[0]["start"]
    assert -c["reading"]["since"] > engine.FIRST_LEAD_MS


def test_with_nobody_seated_there_is_nothing_to_wait_for():
    s = engine.new_state(settings("chirashi", ready_first=True), [{"is_cpu": True}] * 2, seed=2)
    assert s["phase"] == "reading"


def test_the_server_caps_the_wait_at_ready_cold_ms_by_the_stamps():
    game = gamekit.registry.get("karuta")
    s = engine.new_state(settings("chirashi", ready_first=True), seats("chirashi"), seed=9)
    assert game.deadline(s, 0) == (engine.READY_COLD_MS, READY)
    s, _ = engine.apply(s, 1, stamped(READY, 300))  # the CPU
    assert game.deadline(s, 0) == (engine.READY_COLD_MS - 300, READY)
    assert engine.READY_COLD_MS < engine.READY_GRACE_MS
    # A memorisation time keeps its own: the time plus the grace.
    m = engine.new_state(
        settings("chirashi", memorise_seconds=30, ready_first=True), seats("chirashi"), seed=9
    )
    assert game.deadline(m, 0) == (30_000 + engine.READY_GRACE_MS, READY)


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("mode", ["solo", "chirashi", "competitive"])
def test_the_phase_names_every_poems_opening_clip_alike_for_any_deal(mode, source):
    """What a page decodes before saying "ready": the first reading's opening clip (and the
    序歌 in competitive) is among them, and the list is the same whatever the deal."""
    clips_of = SOURCES[source]
    lists = []
    for seed in (1, 2, 3):
        s = engine.new_state(settings(mode, "fast", ready_first=True), seats(mode), seed=seed)
        ahead = released(engine.view(s, 0), 0, clips_of=clips_of)["voice_next"]
        lists.append(ahead)
        for seat in range(len(s["seats"])):
            s, _ = engine.apply(s, seat, READY)
        full = engine.view(s, 0)
        opens = released(full, full["reading"]["t0"], clips_of=clips_of)["reading"]["voice"]
        first_kami = next(c for c in opens if c["part"] == "kami")
        assert first_kami["id"] in {c["id"] for c in ahead}
        if mode == "competitive":
            assert [c["part"] for c in ahead[:2]] == ["joka", "joka_shimo"]
        assert all(c["part"] in ("kami", "joka", "joka_shimo") for c in ahead)
    assert lists[0] == lists[1] == lists[2]


def test_the_menu_form_opts_in():
    for mode in ("solo", "chirashi", "competitive", "genpei"):
        cleaned = {
            "mode": mode,
            "cpu_level": "futsu",
            "pace": "standard",
            "memorise_seconds": 0,
            "players": 2,
        }
        assert KarutaSettingsForm.to_settings(cleaned)["ready_first"] is True
