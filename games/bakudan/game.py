"""Bakudan Mekuri as a plugin: the platform's contract over the pure engine in engine.py."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

import gamekit
from gamekit import GameOverError, LeavePolicy, Mode, NotYourTurnError, SeatSpec
from games.bakudan import cpu, engine
from games.bakudan.engine import BakudanState
from games.bakudan.forms import DEFAULT_PLAYERS, BakudanSettingsForm
from games.bakudan.levels import CPU_LEVELS
from games.bakudan.number import SEED_BITS, GameNumberError, deal_seed, decode, encode
from games.bakudan.text import describe_event


@gamekit.register
class Bakudan(gamekit.Game):
    slug = "bakudan"
    name = _("Bakudan Mekuri")
    summary = _("Draw in turn and dodge the bombs: nippers save you once, the last one left wins.")
    min_players = engine.MIN_PLAYERS
    max_players = engine.MAX_PLAYERS
    modes = (Mode.CPU, Mode.HOTSEAT, Mode.FRIEND)
    cpu_levels = CPU_LEVELS
    settings_form = BakudanSettingsForm
    error_messages = {
        "place_bomb_first": _("Put the bomb back into the deck first."),
        "no_bomb_to_place": _("There is no bomb to put back."),
        "card_not_in_hand": _("That card is not in your hand."),
        "card_not_playable": _("Blanks and nippers cannot be played."),
        "bad_snatch_target": _(
            "Snatch from another player still in the game who has a card or a shield."
        ),
        "shield_already_up": _("You already have a shield up."),
        "bad_bomb_position": _("That position is not in the deck."),
    }
    # The keys each action keeps: the platform drops the rest before the engine and the log.
    action_schema = {"play": ("card", "target"), "draw": (), "place_bomb": ("where", "position")}
    private_hands = True
    on_leave = LeavePolicy.OUT
    seed_bits = SEED_BITS
    telemetry_settings = {"numbered": ("on", "off")}
    order = 30

    # --- settings -----------------------------------------------------------

    def settings_from_form(self, cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
        settings: dict[str, Any] = {"players": int(cleaned_data["players"])}
        if cleaned_data.get("number"):
            settings["number"] = str(cleaned_data["number"])
        return settings

    def player_count(self, settings: Mapping[str, Any]) -> int:
        return int(settings.get("players", DEFAULT_PLAYERS))

    def seed_for(self, settings: Mapping[str, Any]) -> int | None:
        """The seed a game number fixes (the form has checked it against the table)."""
        text = settings.get("number")
        if not text:
            return None
        try:
            return decode(text).seed
        except GameNumberError:
            return None  # not from the form: deal afresh rather than refuse the match

    def rematch_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Play again deals anew; replaying the same deal goes through the menu with the number."""
        return {key: value for key, value in settings.items() if key != "number"}

    def telemetry_settings_buckets(self, settings: Mapping[str, Any]) -> dict[str, str]:
        buckets = super().telemetry_settings_buckets(settings)
        buckets["numbered"] = "on" if settings.get("number") else "off"
        return buckets

    # --- the engine -----------------------------------------------------------

    def new_state(
        self, settings: Mapping[str, Any], seats: Sequence[SeatSpec], seed: int
    ) -> BakudanState:
        players = self.player_count(settings)
        if len(seats) != players:
            raise ValueError(f"{players} players need as many seats, not {len(seats)}")
        # A CPU seat without a level plays the platform's default, the first level.
        default = self.cpu_levels[0].key
        personalities = [(spec.cpu_level or default) if spec.is_cpu else None for spec in seats]
        seed %= 2**SEED_BITS  # the game number holds SEED_BITS; the deal uses no more
        # The number names the CPU at the table, if any (a friend room whose empty seats the
        # CPU took too: replayed against that CPU from the menu, it deals the same cards).
        table = next((level for level in personalities if level is not None), None)
        number = encode(players, table, seed)
        return engine.deal(players, deal_seed(seed), cpu=personalities, number=number)

    def to_act(self, state: BakudanState) -> tuple[int, ...]:
        return () if state.to_act is None else (state.to_act,)

    def legal_actions(self, state: BakudanState, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def apply(
        self, state: BakudanState, seat: int, action: Mapping[str, Any]
    ) -> tuple[BakudanState, list[Any]]:
        state, events = engine.apply(state, seat, action)
        return self._finish_without_people(state, events)

    def remove_seat(self, state: BakudanState, seat: int) -> tuple[BakudanState, list[Any]]:
        state, events = engine.remove_seat(state, seat)
        return self._finish_without_people(state, events)

    def _finish_without_people(
        self, state: BakudanState, events: list[Any]
    ) -> tuple[BakudanState, list[Any]]:
        """Against the CPU the match ends when the last person at the table is out: the CPUs
        play on to the end at once (each from its own view, with an rng from the seed), and
        the result says who survived."""
        if engine.needs_fast_forward(state):
            state, more = engine.fast_forward(state, cpu.seat_policy(state.cpu))
            events = [*events, *more]
        return state, events

    def view(self, state: BakudanState, seat: int | None) -> dict[str, Any]:
        return engine.view(state, seat)

    def result(self, state: BakudanState) -> dict[str, Any] | None:
        return engine.result(state)

    def record_view(self, state: BakudanState) -> dict[str, Any]:
        """A finished match's record shows everything: every hand, the deck from the top, what
        each seat had peeked at, and the game number (replaying the deal is "play this deal")."""
        shown = engine.view(state, None)

        def card(card_id: str) -> dict[str, str]:
            return {"id": card_id, "kind": state.kinds[card_id]}

        shown["hands"] = [[card(c) for c in hand] for hand in state.hands]
        shown["deck"] = [card(c) for c in state.deck]
        shown["notes_by_seat"] = [
            [{"position": p, "card": card(c)} for p, c in sorted(notes.items())]
            for notes in state.notes
        ]
        shown["number"] = state.number
        return shown

    def cpu_policy(
        self, view: Mapping[str, Any], seat: int, level: str, rng: random.Random
    ) -> dict[str, Any]:
        if view["over"]:
            raise GameOverError("the game is over")
        if view["to_act"] != seat:
            raise NotYourTurnError(f"it is seat {view['to_act']}'s turn, not seat {seat}'s")
        return cpu.choose(view, seat, level, rng)

    # --- presentation ---------------------------------------------------------

    def describe_events(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        return [describe_event(event) for event in events]

    # --- storage --------------------------------------------------------------

    def dump_state(self, state: BakudanState) -> dict[str, Any]:
        return engine.dump(state)

    def load_state(self, data: Any) -> BakudanState:
        return engine.load(data)
