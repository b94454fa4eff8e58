"""Hyakunin Isshu karuta as a plugin: the contract of gamekit.Game over the pure engine.

The action protocol (phases, touches with their claimed times, sends, arrangements) is
documented in `games.karuta.engine`; the reading time base in `games.karuta.reading`; what
a client is sent when (the reading released just in time) in `games.karuta.release`; the
arrival checks and the judging window in `games.karuta.judge`; the CPU levels' table in
`games.karuta.cpu`. docs/karuta-online.md tells the whole story.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings as django_settings
from django.utils.translation import gettext_lazy as _

import gamekit
from gamekit import CpuLevel, Mode, SeatSpec
from games.karuta import cpu, engine, judge, release, text
from games.karuta.forms import LEVEL_CHOICES, KarutaSettingsForm

# One line per level, matching the figures `manage.py karuta_ladder` measures.
LEVEL_DESCRIPTIONS = {
    "nyumon": _("Gives you time to read the whole upper verse."),
    "yowai": _(
        "Knows the cards on its own side and guards them; for the others it mostly waits "
        "for the whole upper verse."
    ),
    "futsu": _("Knows the kimariji: takes about half a second after the deciding sound."),
    "tsuyoi": _("Takes about a third of a second after the deciding sound, and rarely errs."),
    "meijin": _("Takes at champion speed, 0.1–0.3 s after the deciding sound."),
}


@gamekit.register
class Karuta(gamekit.Game):
    slug = "karuta"
    name = _("Hyakunin Isshu karuta")
    summary = _("Hear the upper verse, find the lower verse first: competitive, chirashi, solo.")
    min_players = 1
    max_players = 4
    modes = (Mode.CPU, Mode.SOLO, Mode.FRIEND)
    cpu_levels = tuple(
        CpuLevel(key, dict(LEVEL_CHOICES)[key], LEVEL_DESCRIPTIONS[key]) for key in cpu.LEVEL_ORDER
    )
    settings_form = KarutaSettingsForm
    error_messages = {
        "invalid_settings": _("These settings do not make a karuta game."),
        "impossible_touch": _("That touch was refused: it could not have been made in time."),
    }
    realtime = True
    # Only these keys reach the engine and the log (the platform adds its timing stamp).
    action_schema = {
        "ready": (),
        "arrange": ("rows", "t"),
        "touch": ("card", "t", "reading"),
        "pass": ("reading",),
        "send": ("card",),
    }
    order = 20
    # Buckets only (RULES.md §6): memorisation time and poem set are grouped, not raw.
    telemetry_settings = {
        "mode": engine.MODES,
        "poem_set": ("all", "20"),
        "pace": ("slow", "standard", "fast", "very_fast", "custom"),
        "show_kimariji": ("on", "off"),
        "speech": ("on", "off"),
        "memorise": ("none", "lt2m", "2-5m", "5-10m", "15m"),
        "otetsuki_penalty": ("sit_out", "return_card"),
        "poem_list": ("on", "off"),
    }

    # --- settings -------------------------------------------------------------

    def settings_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
        return KarutaSettingsForm.to_settings(cleaned_data)

    def telemetry_settings_buckets(self, settings: Mapping[str, Any]) -> dict[str, str]:
        s = engine.normalize_settings(settings)
        seconds = s["memorise_seconds"]
        memorise = (
            "none" if seconds == 0
            else "lt2m" if seconds < 120
            else "2-5m" if seconds <= 300
            else "5-10m" if seconds <= 600
            else "15m"
        )  # fmt: skip
        pace = s["pace"] if isinstance(s["pace"], str) else "custom"
        return super().telemetry_settings_buckets(
            {
                **s,
                "poem_set": "20" if s["poem_set"] or s["poems"] else "all",
                "pace": pace,
                "memorise": memorise,
                "poem_list": bool(s["poems"]),
            }
        )

    def player_count(self, settings: Mapping[str, Any]) -> int:
        return engine.normalize_settings(settings)["players"]

    def clean_action(self, action: Mapping[str, Any]) -> dict[str, Any]:
        cleaned = super().clean_action(action)
        if cleaned["type"] == "touch" and judge_by() == "arrival":
            cleaned["judge"] = "arrival"  # logged with the touch: a replay judges it alike
        return cleaned

    # --- engine -----------------------------------------------------------------

    def new_state(
        self, settings: Mapping[str, Any], seats: Sequence[SeatSpec], seed: int
    ) -> engine.State:
        return engine.new_state(
            settings,
            [{"is_cpu": seat.is_cpu, "level": seat.cpu_level} for seat in seats],
            seed,
        )

    def to_act(self, state: engine.State) -> tuple[int, ...]:
        return engine.to_act(state)

    def legal_actions(self, state: engine.State, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def apply(
        self, state: engine.State, seat: int, action: Mapping[str, Any]
    ) -> tuple[engine.State, list[dict[str, Any]]]:
        return engine.apply(state, seat, action)

    def view(self, state: engine.State, seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def result(self, state: engine.State) -> dict[str, Any] | None:
        return engine.result(state)

    def cpu_policy(
        self, view: Mapping[str, Any], seat: int, level: str, rng: random.Random
    ) -> dict[str, Any]:
        return cpu.cpu_policy(view, seat, level, rng)

    # --- timing -----------------------------------------------------------------------

    def released_view(self, view: dict[str, Any], elapsed_ms: int, lead_ms: int) -> dict[str, Any]:
        return release.released(view, elapsed_ms, lead_ms)

    def release_times(self, view: dict[str, Any], lead_ms: int) -> list[int]:
        return release.release_times(view, lead_ms)

    def play_at(self, state: engine.State, seat: int, action: Mapping[str, Any]) -> int | None:
        """A CPU's touch is played at its time, its pass (a dead card) at the close."""
        r = state["reading"]
        if state["phase"] != "reading" or r is None:
            return None
        if action.get("type") == "touch":
            return action["t"] - r["since"]
        if action.get("type") == "pass":
            return r["close"] - r["since"]
        return None

    def deadline(self, state: engine.State, seat: int) -> tuple[int, dict[str, Any]] | None:
        r = state["reading"]
        if state["phase"] != "reading" or r is None:
            return None
        unknown = [None] * len(state["seats"])
        owd = (state.get("owd") or unknown)[seat]
        jitter = (state.get("jitter") or unknown)[seat]
        due = judge.deadline(r, seat, owd, state["seats"][seat]["is_cpu"], jitter)
        return None if due is None else (due - r["since"], {"type": "pass"})

    def cpu_key(self, state: engine.State, seat: int) -> str | None:
        """One plan per reading and touch: another seat's move does not redraw it."""
        r = state["reading"]
        if state["phase"] != "reading" or r is None:
            return None
        return f"reading{r['number']}.{len(r['touches'][seat])}"

    # --- presentation -------------------------------------------------------------

    def describe_events(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        return text.describe_events(events)

    # --- storage ------------------------------------------------------------------

    def dump_state(self, state: engine.State) -> Any:
        return engine.clone(state)

    def load_state(self, data: Any) -> engine.State:
        return engine.load(data)


def judge_by() -> str:
    """How contested touches are judged: "corrected" (the claimed time on the corrected
    clock, checked against the arrival) or "arrival" (arrival order at the server, the
    fairness bench's baseline: docs/karuta-online.md). Setting KARUTA_JUDGE."""
    value = getattr(django_settings, "KARUTA_JUDGE", "corrected")
    return "arrival" if value == "arrival" else "corrected"
