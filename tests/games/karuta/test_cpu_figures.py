"""Every CPU figure the karuta page states is the output of `manage.py karuta_ladder`."""

from __future__ import annotations

import io
import json
import re
from html import unescape

import pytest
from django.core.management import call_command

from games.karuta import cpu, figures, sim

SMALL_GAMES = 40  # enough to give figures of their own; the stored file has 1000 per pair


def _ladder_json(*args: str) -> dict:
    out = io.StringIO()
    call_command("karuta_ladder", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """The command run small, once for the module (the same games and seed always write the
    same file), written to a file of its own: its output and that file."""
    path = tmp_path_factory.mktemp("ladder") / "ladder.json"
    with pytest.MonkeyPatch.context() as patch:  # the stored file itself only meanwhile
        patch.setattr(figures.STORED, "path", path)
        table = _ladder_json("--games", str(SMALL_GAMES), "--seed", "3", "--write")
    figures.STORED.forget()
    return table, path


@pytest.fixture
def small_table(small_run, monkeypatch):
    """The small run's output, and the pages reading its file."""
    table, path = small_run
    monkeypatch.setattr(figures.STORED, "path", path)
    figures.STORED.forget()
    yield table
    monkeypatch.undo()
    figures.STORED.forget()


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.2f}"


def _level_help(html: str, level: str) -> str:
    found = re.search(rf'id="level-help-{level}"[^>]*>(.*?)</', html, re.S)
    assert found, level
    return unescape(found.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("prefix", ["/", "/en/", "/zh-hans/"])
def test_every_cpu_speed_on_the_page_is_the_commands_output(client, small_table, prefix):
    html = client.get(f"{prefix}karuta/").content.decode()
    for level in cpu.LEVEL_ORDER:
        after = "after_verse" if level == "nyumon" else "after_decided"
        spread = small_table["levels"][level][after]
        text = _level_help(html, level)
        stated = re.findall(r"\d+\.\d\d", text)
        assert stated == [_seconds(spread[k]) for k in ("p50", "p10", "p90")], (level, text)
    paragraph = unescape(re.search(r"<p data-cpu-figures>(.*?)</p>", html, re.S).group(1))
    meijin = small_table["levels"]["meijin"]["after_decided"]
    novice = small_table["levels"]["nyumon"]["after_verse"]
    rates = small_table["win_rate"]
    adjacent = [rates[b][a] for a, b in zip(cpu.LEVEL_ORDER, cpu.LEVEL_ORDER[1:], strict=False)]
    seconds = [*(_seconds(meijin[k]) for k in ("p50", "p10", "p90")), _seconds(novice["p50"])]
    assert re.findall(r"\d+\.\d\d", paragraph) == seconds, paragraph
    low, high = f"{min(adjacent) * 100:.0f}", f"{max(adjacent) * 100:.0f}"
    assert re.findall(r"(\d+)–(\d+)%", paragraph) == [(low, high)], paragraph
    assert str(SMALL_GAMES) in re.sub(r"\d+\.\d\d|\d+–\d+%", "", paragraph)


def test_the_stored_figures_are_the_current_models():
    """data/ladder.json is what the command writes for its games and seed today: one pair
    replayed exactly (the command's seeds: full_ladder) must give the stored win rate."""
    table = figures.load_table()
    assert table["path"] == "simulator"
    games, seed = table["games_per_pair"], table["seed"]
    levels = cpu.LEVEL_ORDER
    i, j = levels.index("tsuyoi"), levels.index("meijin")
    pair = sim.match_up("tsuyoi", "meijin", games, seed=seed * 31 + i * 7 + j)
    assert pair.win_rate("meijin", "tsuyoi") == table["win_rate"]["meijin"]["tsuyoi"]
