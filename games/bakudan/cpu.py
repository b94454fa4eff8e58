"""The three CPU personalities. Pure Python: a CPU decides from its seat's view alone (its
hand, the public counts, its own notes, its legal moves) and the rng it is handed.

- 無謀 reckless: plays a card on a whim about half the time, else draws; never reads its
  notes; puts a bomb back anywhere at all.
- 冷静 calm: escapes a bomb it knows is on top; peeks when danger is high (from 25%, the
  page's tip) and it does not know the top; snatches when it has no nipper; keeps its shield
  in hand until pushes are likely (danger high, or it has just been pushed), then puts it up;
  passes a push on; puts a bomb back where it is safest for itself, not as an attack: at the
  bottom, the card every draw from the top reaches last (and one it knows not to bottom-draw).
- 非情 ruthless: puts bombs on top; pushes onto a human whenever it can (on anyone once
  danger is high); snatches from people first; otherwise plays like calm.

Every move a CPU returns is copied from the view's "legal" list, so it is always legal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gamekit.base import IllegalActionError, InvalidActionError

RECKLESS, CALM, RUTHLESS = "reckless", "calm", "ruthless"
PERSONALITIES = (RECKLESS, CALM, RUTHLESS)

PEEK_DANGER = 0.25  # calm and ruthless peek at an unknown top from this danger on (the tip)
ESCAPE_DANGER = 0.3  # without a nipper, calm spends an escape card from this danger on
RUTHLESS_PUSH_DANGER = 0.25  # ruthless pushes onto anyone from this danger on
SHIELD_DANGER = 0.2  # calm puts its shield up from this danger on (or once pushed)


def choose(view: Mapping[str, Any], seat: int, level: str, rng: random.Random) -> dict[str, Any]:
    """The action of the CPU with personality `level` in `seat`, from that seat's view."""
    if level not in PERSONALITIES:
        raise InvalidActionError(f"unknown CPU personality {level!r}")
    if view.get("seat") != seat or view.get("to_act") != seat or not view.get("legal"):
        raise IllegalActionError(f"seat {seat} has nothing to do in this view")
    table = _Table(view, seat)
    rng = _private_rng(view, rng)
    if view["pending"] is not None:
        return table.place_bomb(level, rng)
    if level == RECKLESS:
        return table.reckless(rng)
    if level == RUTHLESS:
        return table.ruthless(rng)
    return table.calm(rng)


def _private_rng(view: Mapping[str, Any], rng: random.Random) -> random.Random:
    """The CPU's randomness, mixed with its own hand.

    The platform seeds `rng` from the match seed, which is only as long as a game number.
    Were a CPU's whims (play or draw?) a function of that seed alone, watching a few of them
    would single the seed out among a million in a second, and with it the whole deal. Mixed
    with the CPU's hand — which follows from the deal only through the slow stretched seed
    (number.deal_seed) — testing a guess costs that stretch again. Still deterministic: the
    same view and rng give the same move, so replays hold."""
    hand = ",".join(sorted(card["id"] for card in view["hand"]))
    return random.Random(f"{rng.getrandbits(64)}:{hand}")


class _Table:
    """What a CPU reads off its view."""

    def __init__(self, view: Mapping[str, Any], seat: int):
        self.view = view
        self.seat = seat
        self.legal = [dict(move) for move in view["legal"]]
        self.kind_of = {card["id"]: card["kind"] for card in view["hand"]}
        self.notes = {note["position"]: note["card"]["kind"] for note in view["notes"]}
        self.seats = view["seats"]

    # -- reading -----------------------------------------------------------------

    def has(self, kind: str) -> bool:
        return kind in self.kind_of.values()

    def plays(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            move
            for move in self.legal
            if move["type"] == "play" and (kind is None or self.kind_of[move["card"]] == kind)
        ]

    def play(self, kind: str) -> dict[str, Any] | None:
        moves = self.plays(kind)
        return moves[0] if moves else None

    def next_seat(self) -> int:
        count = len(self.seats)
        for step in range(1, count + 1):
            other = (self.seat + step) % count
            if self.seats[other]["alive"]:
                return other
        return self.seat

    def top(self) -> str | None:
        return self.notes.get(0)

    def bottom_known(self) -> str | None:
        return self.notes.get(self.view["deck_count"] - 1)

    def escape(self, prefer_push: bool = False) -> dict[str, Any] | None:
        """An action card that ends the turn without taking the top card."""
        order = ["push", "dodge", "bottom"] if prefer_push else ["dodge", "push", "bottom"]
        if self.view["owed"] >= 2:
            order = ["push", *[kind for kind in order if kind != "push"]]
        for kind in order:
            if kind == "bottom" and self.bottom_known() == "bomb":
                continue
            move = self.play(kind)
            if move is not None:
                return move
        return None

    def snatch_from(self, targets: list[int]) -> dict[str, Any] | None:
        moves = [move for move in self.plays("snatch") if move["target"] in targets]
        if not moves:
            return None
        # The unshielded player with the most cards: the likeliest to hold a nipper.
        return max(
            moves,
            key=lambda m: (
                not self.seats[m["target"]]["shield"],
                self.seats[m["target"]]["hand_count"],
                -m["target"],
            ),
        )

    # -- placing a bomb ------------------------------------------------------------

    def place_bomb(self, level: str, rng: random.Random) -> dict[str, Any]:
        owes_more = self.view["owed"] > 1  # the draw that found the bomb is still counted
        if level == RECKLESS:
            return dict(rng.choice(self.legal))
        if level == RUTHLESS:
            if not owes_more or any(self.has(kind) for kind in ("dodge", "push", "bottom")):
                return {"type": "place_bomb", "where": "top"}
            depth = min(1, self.view["deck_count"])  # under one card, so its own draw is safe
            return {"type": "place_bomb", "where": "position", "position": depth}
        return {"type": "place_bomb", "where": "bottom"}  # calm: safest for itself

    # -- the personalities ---------------------------------------------------------

    def reckless(self, rng: random.Random) -> dict[str, Any]:
        plays = self.plays()
        if plays and rng.random() < 0.5:
            return dict(rng.choice(plays))
        return {"type": "draw"}

    def calm(self, rng: random.Random) -> dict[str, Any]:
        danger = self.view["danger"]
        nipper = self.has("nipper")
        if self.top() == "bomb":
            move = self.escape() or self.play("shuffle")
            if move is not None:
                return move
        if self.view["owed"] >= 2 and self.play("push") is not None:
            return self.play("push")
        if not nipper:
            move = self.snatch_from([s["index"] for s in self.seats if s["index"] != self.seat])
            if move is not None:
                return move
        # A shield is worth most against a push, and pushes come once danger is up: until
        # then it stays in hand, where a snatch can take it but not waste it.
        shield_time = danger >= SHIELD_DANGER or self.view["owed"] >= 2
        if shield_time and not self.seats[self.seat]["shield"] and self.play("shield") is not None:
            return self.play("shield")
        if self.top() is None and danger >= PEEK_DANGER and self.play("peek") is not None:
            return self.play("peek")
        if self.top() is not None and self.top() != "bomb":
            return {"type": "draw"}
        if not nipper and danger >= ESCAPE_DANGER:
            move = self.escape()
            if move is not None:
                return move
        return {"type": "draw"}

    def ruthless(self, rng: random.Random) -> dict[str, Any]:
        danger = self.view["danger"]
        nipper = self.has("nipper")
        target = self.seats[self.next_seat()]
        if self.top() == "bomb":
            move = self.escape(prefer_push=True) or self.play("shuffle")
            if move is not None:
                return move
        humans = [s["index"] for s in self.seats if s["human"] and s["index"] != self.seat]
        push = self.play("push")
        worth_it = target["human"] or danger >= RUTHLESS_PUSH_DANGER or self.view["owed"] >= 2
        if push is not None and not target["shield"] and worth_it:
            return push
        if self.plays("snatch") and (not nipper or humans):
            move = self.snatch_from(humans) or (
                None if nipper else self.snatch_from([s["index"] for s in self.seats])
            )
            if move is not None:
                return move
        if not self.seats[self.seat]["shield"] and self.play("shield") is not None:
            return self.play("shield")
        if self.top() is None and danger >= PEEK_DANGER and self.play("peek") is not None:
            return self.play("peek")
        if self.top() is not None and self.top() != "bomb":
            return {"type": "draw"}
        if not nipper and danger >= ESCAPE_DANGER:
            move = self.escape(prefer_push=True)
            if move is not None:
                return move
        return {"type": "draw"}


def policy(level: str):
    """`choose` for one personality, in the shape engine.play_out wants."""

    def play(view: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        return choose(view, seat, level, rng)

    return play


def seat_policy(levels: list[str | None]):
    """A policy for a table where seat n plays personality levels[n] (the fast-forward of a
    vs-CPU game, simulations). Only CPU seats are ever asked."""

    def play(view: Mapping[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        return choose(view, seat, levels[seat], rng)

    return play
