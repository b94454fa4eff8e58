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


def dynamic_kimariji(number: int, read: Iterable[int] = ()) -> int:
    """Kana needed to decide poem `number` once the poems in `read` have been read."""
    keys = _keys()
    if number not in keys:
        raise KeyError(number)
    done = set(read)
    own = keys[number]
    longest = max(
        (
            shared_prefix(own, keys[other])
            for other in keys
            if other != number and other not in done
        ),
        default=0,
    )
    return min(longest + 1, len(own))


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
