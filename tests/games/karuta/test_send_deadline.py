"""The send phase has an end: a seat that owes a card and has not chosen one within
SEND_LIMIT_MS has one sent for it by the server (a system move), the card a strong player
sends, so a present player who never chooses holds nobody for ever (an opponent in a rated
game least of all). The game's deadline on a hand-built position; the match server plays a
game's deadline for a present seat as test_ready_deadline.py shows for "ready"."""

from __future__ import annotations

import pytest

import gamekit
from games.karuta import cpu, engine
from games.karuta.game import chosen_send
from tests.games.karuta.test_competitive import A, B, passes, position, touch


@pytest.fixture
def game():
    return gamekit.registry.get("karuta")


def test_the_seat_that_owes_a_card_has_one_sent_after_the_limit(game):
    s = position(4)
    s, _ = touch(s, A, 4, 500)  # A takes on B's side: A owes B a card
    s, _ = passes(s, B)
    assert s["phase"] == "send" and engine.to_act(s) == (A,)
    limit, action = game.deadline(s, A)
    assert limit == engine.SEND_LIMIT_MS
    assert action == {"type": "send", "card": chosen_send(s)}
    assert game.deadline(s, B) is None  # B chooses nothing
    own = engine.side_cards(s, A)
    assert chosen_send(s) in own
    best = max(cpu.send_score(card, own) for card in own)
    assert cpu.send_score(chosen_send(s), own) == best
    assert chosen_send(s) == min(c for c in own if cpu.send_score(c, own) == best)
    after, events = engine.apply(s, A, action)  # the deadline's move is a legal send
    assert events[0]["type"] == "send" and after["phase"] == "reading"
