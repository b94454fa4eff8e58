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
from functools import lru_cache
from typing import Any

from django.conf import settings as django_settings
from django.templatetags.static import static
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

import gamekit
from gamekit import CpuLevel, Mode, SeatGroup, SeatSpec
from games.karuta import cpu, engine, figures, judge, options, release, text
from games.karuta.forms import LEVEL_CHOICES, KarutaSettingsForm

# Who each level stands for, then how fast it takes: the figures `manage.py karuta_ladder
# --write` measured (data/ladder.json), filled in when the menu is drawn.
LEVEL_DESCRIPTIONS = {
    "nyumon": _(
        "Waits until the reader has finished the upper verse, then recalls the poem and looks "
        "for it."
    ),
    "yowai": _(
        "Knows some kimariji, most of them for the cards on its own side; for the other poems "
        "it waits for the end of the upper verse."
    ),
    "futsu": _(
        "A club player: knows most kimariji, those on its own side best, and is slow to recall "
        "the other poems."
    ),
    "tsuyoi": _("A graded player: knows nearly every kimariji and follows them as they shrink."),
    "meijin": _("A champion: knows every kimariji and always follows them as they shrink."),
}
AFTER_DECIDED = _(
    "Median %(p50)s s after the deciding sound; eight takes in ten within %(p10)s–%(p90)s s."
)
AFTER_VERSE = _(
    "Median %(p50)s s after the upper verse has ended; eight takes in ten within %(p10)s–%(p90)s s."
)


def _describe(level: str) -> str:
    """The level's sentence and its measured speed, in the active language. A level that
    has learnt no kimariji is timed from the end of the upper verse, the others from the
    deciding sound."""
    params = cpu.LEVELS[level]
    knows_none = params.learnt_rate == params.own_learnt_rate == 0
    after, figure = ("after_verse", AFTER_VERSE) if knows_none else ("after_decided", AFTER_DECIDED)
    speed = figure % figures.touch_seconds(level, after)
    # Two sentences, joined as the language joins them (no space in Japanese or Chinese).
    return _("%(level)s %(speed)s") % {"level": LEVEL_DESCRIPTIONS[level], "speed": speed}


describe_level = lazy(_describe, str)


@gamekit.register
class Karuta(gamekit.TimedGame):
    slug = "karuta"
    name = _("Hyakunin Isshu karuta")
    summary = _(
        "Hear the upper verse, find the lower verse first: competitive, chirashi, genpei-sen "
        "in teams, solo."
    )
    min_players = 1
    max_players = 8  # genpei: two teams of four
    modes = (Mode.CPU, Mode.SOLO, Mode.FRIEND)
    cpu_levels = tuple(
        CpuLevel(key, dict(LEVEL_CHOICES)[key], describe_level(key)) for key in cpu.LEVEL_ORDER
    )
    settings_form = KarutaSettingsForm
    error_messages = {
        "invalid_settings": _("These settings do not make a karuta game."),
        "impossible_touch": _("That touch was refused: it could not have been made in time."),
        # Each reason of judge.ImpossibleTouchError (matches.errors.message_of).
        "impossible_touch.guess": _(
            "Too early: the kana so far still fit another card. A touch counts from the "
            "deciding kana."
        ),
        "impossible_touch.late": _(
            "Refused: your touch reached the server later than your connection's delay "
            "allows after the moment it was made."
        ),
        "impossible_touch.future": _(
            "Refused: your touch is dated after the server's present moment (is this "
            "device's clock jumping?)."
        ),
    }
    # Only these keys reach the engine and the log (the platform adds its timing stamp).
    action_schema = {
        "ready": (),
        "arrange": ("rows", "t"),
        "touch": ("card", "t", "reading"),
        "pass": ("reading",),
        "send": ("card",),
    }
    order = 20
    # Buckets only (docs/requirements.md §6): memorisation time and poem set are grouped, not raw.
    telemetry_settings = {
        "mode": engine.MODES,
        "poem_set": ("all", "20"),
        "pace": ("slow", "standard", "fast", "very_fast", "custom"),
        "show_kimariji": ("on", "off"),
        "speech": ("on", "off"),
        "memorise": ("none", "lt2m", "2-5m", "5-10m", "15m"),
        "otetsuki_penalty": ("sit_out", "return_card"),
        "poem_list": ("on", "off"),
        # Genpei: the team sizes (yours first) and which touches are otetsuki.
        "teams": tuple(f"{a}v{b}" for a in options.TEAM_SIZES for b in options.TEAM_SIZES),
        "otetsuki_rule": options.OTETSUKI_RULES,
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
                "teams": "v".join(map(str, s["teams"])) if s["teams"] else None,
                "otetsuki_rule": s["otetsuki_rule"] if s["mode"] == "genpei" else None,
            }
        )

    def player_count(self, settings: Mapping[str, Any]) -> int:
        return engine.normalize_settings(settings)["players"]

    def seat_levels(self, settings: Mapping[str, Any]) -> list[str | None] | None:
        return engine.normalize_settings(settings)["seat_levels"]

    def seat_groups(self, settings: Mapping[str, Any]) -> tuple[SeatGroup, ...]:
        """Genpei: a person joining a friend room chooses a team."""
        s = engine.normalize_settings(settings)
        if s["mode"] != "genpei":
            return ()
        teams = options.seat_teams(s)
        return tuple(
            SeatGroup(text.team_label(team), tuple(i for i, t in enumerate(teams) if t == team))
            for team in (0, 1)
        )

    def swap_group_seats(
        self, settings: Mapping[str, Any], first: int, second: int
    ) -> dict[str, Any]:
        """Genpei: the room's creator exchanges two seats of different teams before the
        start (`seat_teams`; the team sizes stay as chosen)."""
        s = engine.normalize_settings(settings)
        if s["mode"] != "genpei":
            raise options.InvalidSettingsError("only genpei has teams")
        swapped = options.swap_seat_teams(s, first, second)
        # Only the key that changed: the room keeps its settings as they were made.
        out = {key: value for key, value in settings.items() if key != "seat_teams"}
        if swapped["seat_teams"] is not None:
            out["seat_teams"] = swapped["seat_teams"]
        return out

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
        shown = release.released(view, elapsed_ms, lead_ms)
        for clip in [*(shown.get("reading") or {}).get("voice", ()), *shown["voice_next"]]:
            clip["url"] = clip_url(clip.pop("file"))
        return shown

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
        """A seat still memorising is made ready after the time plus a grace; a seat that
        owes a card has one sent after SEND_LIMIT_MS; a seat still in a reading is passed
        when its judging window closes."""
        if state["phase"] == "memorise":
            if seat not in engine.to_act(state):
                return None
            return engine.ready_deadline(state), {"type": "ready"}
        if state["phase"] == "send":
            if seat not in engine.to_act(state):
                return None
            return engine.SEND_LIMIT_MS, {"type": "send", "card": chosen_send(state)}
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


def chosen_send(state: engine.State) -> int:
    """The card sent for a seat that did not choose in time: the one a strong player sends
    (cpu.send_score), the lowest number among equals: the same for every process."""
    own = engine.side_cards(state, state["send"]["from"])
    return max(own, key=lambda card: (cpu.send_score(card, own), -card))


def judge_by() -> str:
    """How contested touches are judged: "corrected" (the claimed time on the corrected
    clock, checked against the arrival) or "arrival" (arrival order at the server, the
    fairness bench's baseline: docs/karuta-online.md). Setting KARUTA_JUDGE."""
    value = getattr(django_settings, "KARUTA_JUDGE", "corrected")
    return "arrival" if value == "arrival" else "corrected"


@lru_cache(maxsize=4096)
def clip_url(file: str) -> str:
    """A voice clip's URL (its file's name is a content hash: it reveals nothing)."""
    return static(file)
