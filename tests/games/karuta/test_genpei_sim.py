"""`manage.py karuta_genpei` and what the rules page takes from it (games/karuta/genpei_sim.py,
genpei_figures.py, data/genpei.json)."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.karuta import genpei_figures, genpei_sim, reading


def test_a_game_s_length_counts_each_reading_from_its_preamble_to_its_take():
    game = genpei_sim.play_one(("futsu",), ("futsu",), seed=9)
    assert game["winner_team"] in (0, 1) and game["margin"] > 0
    assert 50 <= game["readings"] <= 100
    # A reading lasts at least its preamble and at most its preamble and close.
    lead_in = -reading.preamble(1, "standard")[0]["start"]
    assert game["readings"] * lead_in / 60000 < game["minutes"]
    assert game["minutes"] < game["readings"] * (lead_in + 15000) / 60000


def test_sides_swap_every_other_game_when_asked_and_results_follow_the_seed():
    up = genpei_sim.MatchUp("t", ("meijin",), ("nyumon",), swap=True)
    games = genpei_sim.play_range(up, 0, 4, seed=2)
    assert games == genpei_sim.play_range(up, 0, 4, seed=2)
    assert [g["first_won"] for g in games] == [True] * 4  # a master beats a novice
    assert [g["winner_team"] for g in games] == [0, 1, 0, 1]  # from either side
    tally = genpei_sim.tally(games)
    assert tally.figures()["first_win_rate"] == 1.0 and tally.side_wins == [2, 2]


def test_the_command_prints_each_match_up_and_its_json():
    out = StringIO()
    call_command("karuta_genpei", games=2, seed=1, only="1v1,2v2", json=True, stdout=out)
    text = out.getvalue()
    assert re.search(
        r"^1v1 .* side 1 \d+\.\d%, side 2 \d+\.\d% .*median [\d.]+ readings", text, re.M
    )
    measured = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert set(measured["match_ups"]) == {"1v1", "2v2"}
    assert measured["match_ups"]["2v2"]["games"] == 2
    with pytest.raises(CommandError):
        call_command("karuta_genpei", games=2, only="1v1", write=True, stdout=StringIO())


def test_the_rules_page_states_the_stored_figures(client):
    table = genpei_figures.STORED.load()
    assert table["games"] >= 2000
    html = client.get("/en/karuta/").content.decode()
    paragraph = re.search(r"<p data-genpei-figures>(.*?)</p>", html, re.S).group(1)
    for row in genpei_figures.lengths():
        assert f"{row['readings']:g} " in paragraph or f"{row['readings']:g} readings" in paragraph
        assert f"{row['minutes']:.0f} minutes" in paragraph
    assert f"{table['games']:,} games" in paragraph
