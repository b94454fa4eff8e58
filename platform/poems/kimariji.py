"""Kimariji: the shortest beginning of an upper verse, as it is said, that no rival shares.

Pure Python. Rivals are the poems not yet read (in competitive karuta the dead
cards are read too, so only reading removes a rival). Lengths count the kana of
the printed upper verse; voicing marks count, spaces do not.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from poems import catalogue, kana


@cache
def _keys() -> dict[int, tuple[str, ...]]:
    return {p.number: tuple(kana.comparison_keys(list(p.kami_sounds))) for p in catalogue.poems()}


def comparison_keys_of(number: int) -> tuple[str, ...]:
    """The sounds kimariji are decided on, one per printed kana of the upper verse."""
    return _keys()[number]


def shared_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@cache
def _rivals() -> dict[int, tuple[tuple[int, int], ...]]:
    """For each poem, (shared beginning, other poem) for every poem sharing at least one
    sound with it, longest first: the first rival not yet read decides the kimariji."""
    keys = _keys()
    table = {}
    for number, own in keys.items():
        shared = ((shared_prefix(own, keys[other]), other) for other in keys if other != number)
        table[number] = tuple(sorted((pair for pair in shared if pair[0]), reverse=True))
    return table


def dynamic_kimariji(number: int, read: Iterable[int] = ()) -> int:
    """Kana needed to decide poem `number` once the poems in `read` have been read: one more
    than the longest beginning it shares with a poem not read yet. The rivals are looked up
    longest first (`_rivals`), so a game's many calls (the engine, every reading) stop at the
    first unread one instead of comparing all hundred poems."""
    keys = _keys()
    if number not in keys:
        raise KeyError(number)
    done = read if isinstance(read, set | frozenset) else set(read)
    longest = next((length for length, other in _rivals()[number] if other not in done), 0)
    return min(longest + 1, len(keys[number]))


@cache
def static_kimariji(number: int) -> int:
    """Kimariji length before any poem has been read."""
    return dynamic_kimariji(number)


def kimariji_kana(number: int, length: int | None = None) -> str:
    """The beginning of the printed upper verse that decides the poem (static by default)."""
    n = static_kimariji(number) if length is None else length
    return catalogue.poem(number).kami_kana_flat[:n]


def kimariji_said(number: int, length: int | None = None) -> str:
    """The same beginning as it is pronounced."""
    n = static_kimariji(number) if length is None else length
    return "".join(catalogue.poem(number).kami_sounds[:n])
