"""The three personalities differ as the page says, and the page's figures are the command's."""

from __future__ import annotations

import io
import re
from html import unescape

import pytest
from django.core.management import call_command

from games.bakudan import cpu, figures, sim

GAMES = 60  # per personality and player count: about 1,000 bomb placements each


@pytest.fixture(scope="module")
def behaviour():
    return sim.behaviour([2, 3, 4, 5], GAMES, seed=11)


def test_calm_and_ruthless_differ_by_40_points_in_bombs_put_on_top(behaviour):
    calm = behaviour.placement_shares(cpu.CALM)
    ruthless = behaviour.placement_shares(cpu.RUTHLESS)
    assert sum(behaviour.placements[cpu.CALM].values()) > 300
    assert ruthless["top"] - calm["top"] >= 0.40
    assert ruthless["top"] > 0.9  # ruthless: on top
    assert calm["bottom"] > 0.9  # calm: where it is safest for itself


def test_reckless_puts_bombs_anywhere(behaviour):
    reckless = behaviour.placement_shares(cpu.RECKLESS)
    assert all(share > 0.1 for share in reckless.values()), reckless


def test_ruthless_aims_its_pushes_at_the_person(behaviour):
    share = behaviour.share
    assert share(behaviour.push_person[cpu.RUTHLESS]) > 0.6
    assert share(behaviour.push_person[cpu.RUTHLESS]) > 2 * share(behaviour.push_cpu[cpu.RUTHLESS])
    for level in (cpu.CALM, cpu.RECKLESS):  # the others do not single the person out
        assert share(behaviour.push_person[level]) < 0.4


def test_calm_peeks_once_the_danger_reaches_a_quarter_and_escapes_known_bombs(behaviour):
    share = behaviour.share
    assert share(behaviour.peek_high[cpu.CALM]) > 0.7
    assert share(behaviour.peek_low[cpu.CALM]) == 0
    assert share(behaviour.escape[cpu.CALM]) > 0.7
    assert share(behaviour.escape[cpu.RECKLESS]) < 0.5


@pytest.fixture
def small_table(tmp_path, monkeypatch):
    monkeypatch.setattr(figures.STORED, "path", tmp_path / "cpu.json")
    figures.STORED.forget()
    out = io.StringIO()
    call_command(
        "bakudan_stats", "--games", "5", "--players", "3", "--table-games", "20",
        "--seed", "4", "--write", stdout=out,
    )  # fmt: skip
    yield figures.load_table(), out.getvalue()
    monkeypatch.undo()
    figures.STORED.forget()


def _percent(share: float) -> str:
    return f"{share * 100:.0f}%"


@pytest.mark.django_db
@pytest.mark.parametrize("prefix", ["/", "/en/", "/zh-hans/"])
def test_every_cpu_figure_on_the_page_is_the_commands_output(client, small_table, prefix):
    table, printed = small_table
    html = client.get(f"{prefix}bakudan/").content.decode()
    block = re.search(r"<dl class=\"class-effects\" data-cpu-figures>(.*?)</dl>", html, re.S)
    texts = [unescape(dd) for dd in re.findall(r"<dd>(.*?)</dd>", block.group(1), re.S)]
    rows = table["levels"]
    expected = {
        cpu.RECKLESS: [rows["reckless"]["placements"]["top"], rows["reckless"]["placements"]
                       ["bottom"], rows["reckless"]["escape"]["share"]],
        cpu.CALM: [rows["calm"]["placements"]["bottom"], rows["calm"]["escape"]["share"], 0.25,
                   rows["calm"]["peek_high"]["share"]],
        cpu.RUTHLESS: [rows["ruthless"]["placements"]["top"],
                       rows["ruthless"]["push_person"]["share"]],
    }  # fmt: skip
    for level, text in zip(cpu.PERSONALITIES, texts, strict=True):
        stated = re.findall(r"\d+%", text)
        assert stated == [_percent(x) for x in expected[level]], (level, text)
    # …and the same shares are what the command printed (its table with a person, last).
    behaviour_table = printed.split("At a table with a person")[1]
    for level in cpu.PERSONALITIES:
        line = next(row for row in behaviour_table.splitlines() if row.startswith(level))
        assert f"{rows[level]['placements']['top']:.1%}" in line
