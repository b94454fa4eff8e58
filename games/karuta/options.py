"""The settings of a karuta game: defaults, checks and the poems in play. Pure Python."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamekit.base import GameError
from games.karuta import reading
from poems import catalogue

MODES = ("competitive", "chirashi", "solo", "genpei")
# Modes played on sides of three rows, read as competitive play is (the 序歌, then each
# previous lower verse before the next upper verse), judged and released alike.
SIDED_MODES = ("competitive", "genpei")
# Genpei: how many seats a team may have, and which touches are otetsuki ("sides": the
# competitive definition; "any": any wrong card, as many families and schools play).
TEAM_SIZES = (1, 2, 3, 4)
OTETSUKI_RULES = ("sides", "any")
LEVEL_KEYS = ("nyumon", "yowai", "futsu", "tsuyoi", "meijin")
PENALTIES = ("sit_out", "return_card")
MAX_MEMORISE_SECONDS = 900  # the official 15 minutes, still offered
CASUAL_MEMORISE_SECONDS = 120  # the default for a casual game against the CPU
POEM_SET_SIZE = 20
# `poem_set_size`: only the first N poems of the chosen set (None: all 20). Production's menu
# never offers it; the test settings do (KARUTA_EXTRA_POEM_SET_SIZES, games/karuta/forms.py),
# for browser tests that play a chirashi or solo game to its end, where every poem is read in
# real time. At least 4: a competitive deal lays a quarter of the pool on each side.
MIN_POEM_SET_SIZE = 4
POEM_SETS = (1, 2, 3, 4, 5)
ALL_POEMS = tuple(range(1, catalogue.POEM_COUNT + 1))

DEFAULTS: dict[str, Any] = {
    "mode": "competitive",
    "players": None,  # competitive 2, solo 1, chirashi 2..4 (default 2)
    "cpu_level": "futsu",
    "poem_set": None,
    "poem_set_size": None,
    "poems": None,  # solo only: an explicit list of poems ("practise my slowest 20")
    "show_kimariji": False,
    "pace": "standard",
    "speech": True,
    "memorise_seconds": CASUAL_MEMORISE_SECONDS,
    # The first reading waits for the pages (docs/karuta-online.md): at memorise_seconds 0
    # a short memorise phase still holds it until every present seat says "ready" (its page
    # can play), and the first reading's t = 0 lies at least FIRST_LEAD_MS after its state
    # begins. Opt-in (the menu's form sets it) so stored games and hand-built states replay
    # unchanged.
    "ready_first": False,
    "otetsuki_penalty": "sit_out",
    # Chirashi and solo: the lower verse is commonly read twice (seed 001); False reads it once.
    "lower_verse_twice": True,
    # Genpei only: the seats of each team ([2, 2] unless chosen; seats 0.. are the first
    # team's), which touches are otetsuki, and each seat's CPU level (None: the seat's own).
    "teams": None,
    "otetsuki_rule": "sides",
    "seat_levels": None,
    # Genpei: each seat's team (0 or 1) when a friend room's creator has moved seats before
    # the start (Game.swap_group_seats); None: the first teams[0] seats are the first team.
    "seat_teams": None,
}


class InvalidSettingsError(GameError):
    code = "invalid_settings"


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def normalize_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Complete `raw` with defaults and check every value (InvalidSettingsError if wrong)."""
    unknown = set(raw) - set(DEFAULTS)
    if unknown:
        raise InvalidSettingsError(f"unknown settings: {sorted(unknown)}")
    s = {**DEFAULTS, **{k: v for k, v in raw.items() if v is not None}}
    if s["mode"] not in MODES:
        raise InvalidSettingsError(f"unknown mode {s['mode']!r}")
    if s["mode"] == "genpei":
        _normalize_teams(s)
    elif any(raw.get(key) is not None for key in ("teams", "seat_levels", "seat_teams")):
        raise InvalidSettingsError("teams and seat levels are for genpei only")
    default_players = {"competitive": 2, "chirashi": 2, "solo": 1, "genpei": 4}[s["mode"]]
    players = s["players"] if s["players"] is not None else default_players
    if not is_int(players):
        raise InvalidSettingsError("players must be a whole number")
    allowed = {
        "competitive": (2,),
        "chirashi": (2, 3, 4),
        "solo": (1,),
        "genpei": (sum(s["teams"] or ()),),
    }[s["mode"]]
    if players not in allowed:
        raise InvalidSettingsError(f"{s['mode']} is played by {allowed} players, not {players}")
    s["players"] = players
    if s["cpu_level"] not in LEVEL_KEYS:
        raise InvalidSettingsError(f"unknown CPU level {s['cpu_level']!r}")
    if s["poem_set"] is not None and s["poem_set"] not in POEM_SETS:
        raise InvalidSettingsError("poem_set must be 1..5 (poems 1–20 … 81–100) or None")
    if s["poem_set_size"] is not None:
        size = s["poem_set_size"]
        if s["poem_set"] is None:
            raise InvalidSettingsError("poem_set_size is for a poem set")
        if not is_int(size) or not MIN_POEM_SET_SIZE <= size <= POEM_SET_SIZE:
            raise InvalidSettingsError(
                f"poem_set_size must be {MIN_POEM_SET_SIZE}..{POEM_SET_SIZE} or None"
            )
    if s["poems"] is not None:
        poems = s["poems"]
        if s["mode"] != "solo":
            raise InvalidSettingsError("an explicit poem list is for solo practice only")
        if (
            not isinstance(poems, list | tuple)
            or not poems
            or not all(is_int(n) and 1 <= n <= catalogue.POEM_COUNT for n in poems)
            or len(set(poems)) != len(poems)
        ):
            raise InvalidSettingsError("poems must be distinct poem numbers 1..100")
        if s["poem_set"] is not None:
            raise InvalidSettingsError("choose a poem set or a poem list, not both")
        s["poems"] = sorted(poems)
    try:
        reading.kana_per_second(s["pace"])
    except ValueError as error:
        raise InvalidSettingsError(str(error)) from None
    for key in ("show_kimariji", "speech", "lower_verse_twice", "ready_first"):
        if not isinstance(s[key], bool):
            raise InvalidSettingsError(f"{key} must be true or false")
    seconds = s["memorise_seconds"]
    if not is_int(seconds) or not 0 <= seconds <= MAX_MEMORISE_SECONDS:
        raise InvalidSettingsError(f"memorise_seconds must be 0..{MAX_MEMORISE_SECONDS}")
    if s["otetsuki_rule"] not in OTETSUKI_RULES:
        raise InvalidSettingsError(f"unknown otetsuki rule {s['otetsuki_rule']!r}")
    if s["otetsuki_penalty"] not in PENALTIES:
        raise InvalidSettingsError(f"unknown otetsuki penalty {s['otetsuki_penalty']!r}")
    return s


def _normalize_teams(s: dict[str, Any]) -> None:
    """Genpei's teams (two sizes of 1–4) and per-seat CPU levels, checked in place."""
    teams = s["teams"] if s["teams"] is not None else [2, 2]
    if (
        not isinstance(teams, list | tuple)
        or len(teams) != 2
        or not all(is_int(n) and n in TEAM_SIZES for n in teams)
    ):
        raise InvalidSettingsError("teams must be two team sizes, each 1 to 4 seats")
    s["teams"] = list(teams)
    if s["players"] is None:
        s["players"] = sum(teams)
    levels = s["seat_levels"]
    if levels is not None:
        if (
            not isinstance(levels, list | tuple)
            or len(levels) != sum(teams)
            or not all(level is None or level in LEVEL_KEYS for level in levels)
        ):
            raise InvalidSettingsError("seat_levels must give a CPU level (or null) per seat")
        s["seat_levels"] = list(levels)
    chosen = s["seat_teams"]
    if chosen is not None:
        if (
            not isinstance(chosen, list | tuple)
            or len(chosen) != sum(teams)
            or not all(is_int(team) and team in (0, 1) for team in chosen)
            or [chosen.count(0), chosen.count(1)] != s["teams"]
        ):
            raise InvalidSettingsError("seat_teams must give each seat its team, as many as teams")
        s["seat_teams"] = list(chosen)


def team_of_seat(teams: list[int], seat: int) -> int:
    """Genpei: the team of a seat (the first team holds seats 0 .. teams[0] − 1)."""
    return 0 if seat < teams[0] else 1


def seat_teams(s: Mapping[str, Any]) -> list[int]:
    """Genpei (normalized settings): each seat's team, as arranged before the start
    (`seat_teams`), else the first teams[0] seats the first team's."""
    if s.get("seat_teams") is not None:
        return list(s["seat_teams"])
    return [team_of_seat(s["teams"], i) for i in range(sum(s["teams"]))]


def swap_seat_teams(s: Mapping[str, Any], first: int, second: int) -> dict[str, Any]:
    """Genpei (normalized settings): the settings with two seats of different teams
    exchanged, each playing for the other's team (the team sizes stay as chosen)."""
    teams = seat_teams(s)
    if not (0 <= first < len(teams) and 0 <= second < len(teams)):
        raise InvalidSettingsError("no such seat")
    if teams[first] == teams[second]:
        raise InvalidSettingsError("the two seats are on the same team")
    teams[first], teams[second] = teams[second], teams[first]
    default = [team_of_seat(s["teams"], i) for i in range(len(teams))]
    return {**s, "seat_teams": None if teams == default else teams}


def reading_mode(mode: str) -> str:
    """How a mode is read and timed: genpei as competitive play."""
    return "competitive" if mode in SIDED_MODES else mode


def lower_reads(settings: Mapping[str, Any]) -> int:
    """How many times the lower verse is read (states saved before the option read it once)."""
    return 2 if settings.get("lower_verse_twice", False) else 1


def pool_of(settings: Mapping[str, Any]) -> tuple[int, ...]:
    if settings.get("poems"):
        return tuple(sorted(settings["poems"]))
    if settings.get("poem_set"):
        first = (settings["poem_set"] - 1) * POEM_SET_SIZE + 1
        return tuple(range(first, first + (settings.get("poem_set_size") or POEM_SET_SIZE)))
    return ALL_POEMS
