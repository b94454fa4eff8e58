"""Game plugins are checked by Django's system checks (gamekit/checks.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gamekit
from gamekit import GameError, LeavePolicy, Mode
from gamekit.checks import check_game as check_alone
from matches.errors import MESSAGES

ROOT = Path(__file__).resolve().parents[2]


class Complete(gamekit.Game):
    slug = "complete"
    name = "Complete"
    max_players = 2
    modes = (Mode.CPU, Mode.HOTSEAT)
    cpu_levels = (gamekit.CpuLevel("easy", "Easy"),)

    def new_state(self, settings, seats, seed):
        return {}

    def to_act(self, state):
        return ()

    def legal_actions(self, state, seat):
        return []

    def apply(self, state, seat, action):
        return state, []

    def view(self, state, seat):
        return {}

    def result(self, state):
        return None

    def cpu_policy(self, view, seat, level, rng):
        return {}


def check_game(game: gamekit.Game) -> list:
    """As the platform registers the checks: with the codes it puts into words."""
    return check_alone(game, MESSAGES)


def ids(game: gamekit.Game) -> list[str]:
    return [error.id for error in check_game(game)]


def test_a_complete_game_and_the_installed_games_pass():
    assert ids(Complete()) == []
    for game in gamekit.registry.all():
        assert check_game(game) == [], game.slug


def test_each_missing_piece_is_named():
    class NoView(Complete):
        view = gamekit.Game.view

    class NoPolicy(Complete):
        cpu_policy = gamekit.Game.cpu_policy

    class NoLevels(Complete):
        cpu_levels = ()

    class TooMany(Complete):
        max_players = len(gamekit.SEAT_COLOURS) + 1

    class OddMode(Complete):
        modes = (Mode.CPU, "tournament")

    class OutWithoutRemove(Complete):
        on_leave = LeavePolicy.OUT

    (error,) = check_game(NoView())
    assert error.id == "gamekit.E001" and "view()" in error.msg
    (error,) = check_game(NoPolicy())
    assert error.id == "gamekit.E006" and "cpu_policy" in error.msg
    assert ids(NoLevels()) == ["gamekit.E005"]
    assert ids(TooMany()) == ["gamekit.E003"]
    assert ids(OddMode()) == ["gamekit.E004"]
    assert ids(OutWithoutRemove()) == ["gamekit.E007"]


def test_a_game_error_code_needs_a_text():
    class OddError(GameError):  # defined in this module: the game's "package" below
        code = "odd_thing"

    class Odd(Complete):
        pass

    game = Odd()
    assert type(game).__module__ == __name__ == OddError.__module__
    # app_module is the module's package; point it at this module for the check.
    type(game).app_module = property(lambda self: __name__)
    assert ids(game) == ["gamekit.E008"]
    type(game).error_messages = {"odd_thing": "An odd thing happened."}
    assert ids(game) == []


def test_manage_py_check_fails_for_a_broken_plugin_naming_the_hook():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    env["DJANGO_SETTINGS_MODULE"] = "tests.fixtures.broken_settings"
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "game 'broken': CPU seats are offered but cpu_policy(view" in done.stderr
    assert "'too_many_beans' (TooManyError) has no message" in done.stderr
