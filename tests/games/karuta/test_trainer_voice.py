"""The trainer's kimariji clips: read from the voice's manifest, cut at the deciding kana."""

from __future__ import annotations

import json
import re

import pytest

from games.karuta import reading, trainer_voice, voice
from games.karuta.voice import plan
from poems import kimariji


@pytest.fixture(autouse=True)
def fresh_table():
    trainer_voice.kimariji_clips.cache_clear()
    yield
    trainer_voice.kimariji_clips.cache_clear()


def test_each_poem_is_heard_up_to_its_deciding_kana_and_no_further():
    assert voice.available(), "the voice is committed built (docs/voice.md)"
    table = trainer_voice.kimariji_clips()
    entries = voice.manifest()["paces"][trainer_voice.PACE].values()
    files = {"/static/" + e["file"] for e in entries}
    assert sorted(table, key=int) == [str(n) for n in range(1, 101)]
    for key, chain in table.items():
        n = int(key)
        length = kimariji.static_kimariji(n)
        times = reading.kami_times(n, trainer_voice.PACE)
        assert chain and all(url in files for url, _, _ in chain), n
        assert [start for _, start, _ in chain] == sorted(start for _, start, _ in chain)
        # The first clip begins its lead-in before the first kana (its consonants sound
        # before its time, docs/voice.md): times here count from that first sample.
        assert chain[0][1] == 0
        lead_in = plan.lead_in_ms(reading.unit_ms(trainer_voice.PACE))
        # No clip starts past the deciding kana; the last stops where the next kana's sound
        # begins: at its time at the latest, at most its consonant budget before.
        assert chain[-1][1] <= times[length - 1] + lead_in
        _, start, end = chain[-1]
        stop = start + end - lead_in  # on the verse's clock
        budget = plan.consonant_budget_ms(reading.unit_ms(trainer_voice.PACE))
        assert times[length] - budget - 5 <= stop <= times[length], n
        assert stop > times[length - 1], n  # the deciding kana itself is heard


def test_poems_alike_share_their_first_clips():
    table = trainer_voice.kimariji_clips()
    asa = [n for n in range(1, 101) if kimariji.kimariji_said(n).startswith("あさぼらけ")]
    assert len(asa) == 2
    first, second = (table[str(n)] for n in asa)
    assert first[0][0] == second[0][0] and first[-1][0] != second[-1][0]


def test_no_built_voice_no_table(monkeypatch):
    monkeypatch.setattr(voice, "available", lambda: False)
    assert trainer_voice.kimariji_clips() == {}


def test_the_page_carries_the_table(client):
    html = client.get("/en/karuta/trainer/").content.decode()
    found = re.search(r'<script id="trainer-voice" type="application/json">(.*?)</script>', html)
    assert json.loads(found.group(1)) == trainer_voice.kimariji_clips()
