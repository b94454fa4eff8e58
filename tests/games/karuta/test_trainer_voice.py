"""The trainer's kimariji clips: read from the voice's manifest, cut at the deciding kana."""

from __future__ import annotations

import json
import re

import pytest

from games.karuta import reading, trainer_voice, voice
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
        assert chain[0][1] == times[0]
        # No clip starts past the deciding kana; the last stops as the next kana would begin
        # (each kana is voiced within 2.5 ms of its scheduled time, docs/voice.md).
        assert chain[-1][1] <= times[length - 1]
        _, start, end = chain[-1]
        assert abs(start + end - times[length]) <= 5, n


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
