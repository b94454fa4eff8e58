"""Karuta fair play: take times no person reaches, over many readings. Pure: take times come
in as numbers of milliseconds and the verdict goes out as a bool.

A take's time is measured on the server's terms, never the client's claim: the moment the
touch arrived at the server, less the connection's one-way delay (the platform's own
estimate, matches/latency.py), less the moment the server released the deciding kana of the
reading (the kana that singles the card out among the unread poems). The judge already
refuses a single touch that comes sooner than a reaction allows (games/karuta/judge.py,
MIN_REACTION_MS); what it cannot see is a pattern.

The pattern: the fastest published players take a card 0.1-0.2 s after its deciding kana on
their good readings, but a person is never that fast every time. Reacting varies (the
karuta CPUs model a 50 ms spread for the 名人 level alone), the hand travels further to some
cards than to others, and some readings are simply slow. A program reacting to the audio or
the screen is fast and regular. So over the last WINDOW takes of an account:

- SLOW_END_MS: the slow end (90th percentile) is still within champion speed, and
- SPREAD_MS: the middle 80% lie within a narrow band (90th less 10th percentile).

Both, over WINDOW takes, flag the account. The figures come from the 名人 CPU's own timing
model (games/karuta/cpu.py), played through the real engine: over 22,000 of its takes (300
games), no window of 30 had a spread under 55 ms, although on its best days its takes were
faster than the bot's; a client taking every card 100-130 ms after its deciding kana has a
spread under 30 ms. 40 ms sits between the two (docs/lobby.md).
"""

from __future__ import annotations

from collections.abc import Sequence

WINDOW = 30
SLOW_END_MS = 200.0
SPREAD_MS = 40.0


def take_ms(arrival_ms: float, owd_ms: float | None, deciding_release_ms: float) -> float | None:
    """A take's time after the deciding kana, on the server's clock (None: the delay is not
    known, so the take is not counted either way)."""
    if owd_ms is None:
        return None
    return arrival_ms - owd_ms - deciding_release_ms


def _quantile(ordered: Sequence[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def superhuman(takes: Sequence[float]) -> bool:
    """Whether these takes (the last WINDOW of an account, oldest first) are a pattern no
    person shows. Fewer than WINDOW takes never are."""
    if len(takes) < WINDOW:
        return False
    ordered = sorted(takes[-WINDOW:])
    slow_end = _quantile(ordered, 0.9)
    spread = slow_end - _quantile(ordered, 0.1)
    return slow_end <= SLOW_END_MS and spread <= SPREAD_MS


class TakeRecord:
    """An account's recent takes and its flag. A flag stays once set: the account is
    paired only with other flagged accounts, and is not told."""

    def __init__(self, takes: Sequence[float] = (), flagged: bool = False) -> None:
        self.takes = list(takes)[-WINDOW:]
        self.flagged = flagged

    def add(self, take: float | None) -> bool:
        """Count one take; return whether the account is flagged now."""
        if take is not None:
            self.takes = [*self.takes, float(take)][-WINDOW:]
            if not self.flagged and superhuman(self.takes):
                self.flagged = True
        return self.flagged
