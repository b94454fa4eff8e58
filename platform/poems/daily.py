"""The poem of the day: the same poem for everyone on a given date. Pure Python.

Days are counted in Japan's calendar (UTC+9, no daylight saving), the poems' home,
so everyone sees the poem change at the same instant. Each run of 100 days shows
every poem once, in an order shuffled from the run's number with mulberry32, a
32-bit generator small enough to be written identically in the trainer's
static/js/trainer/daily.js (tests check the two agree).
"""

from __future__ import annotations

import datetime as dt

from poems import catalogue, kimariji

JAPAN = dt.timezone(dt.timedelta(hours=9))
EPOCH = dt.date(2000, 1, 1)
_MASK = 0xFFFFFFFF


def _imul(a: int, b: int) -> int:
    return (a * b) & _MASK


def mulberry32(seed: int):
    """Floats in [0, 1), the same sequence as the JavaScript original for the same seed."""
    state = seed & _MASK

    def next_float() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & _MASK
        t = state
        t = _imul(t ^ (t >> 15), t | 1)
        t ^= (t + _imul(t ^ (t >> 7), t | 61)) & _MASK
        return ((t ^ (t >> 14)) & _MASK) / 2**32

    return next_float


def day_number(date: dt.date) -> int:
    return (date - EPOCH).days


def japan_date(moment: dt.datetime) -> dt.date:
    return moment.astimezone(JAPAN).date()


def order(run: int) -> list[int]:
    """The 100 poem numbers in the order run `run` shows them (Fisher–Yates)."""
    numbers = list(range(1, catalogue.POEM_COUNT + 1))
    rand = mulberry32(run)
    for i in range(len(numbers) - 1, 0, -1):
        j = int(rand() * (i + 1))
        numbers[i], numbers[j] = numbers[j], numbers[i]
    return numbers


def poem_of_day(date: dt.date) -> int:
    day = day_number(date)
    return order(day // catalogue.POEM_COUNT)[day % catalogue.POEM_COUNT]


def nearest(number: int, count: int = 2) -> list[int]:
    """The poems whose upper verses begin most like this one's, as kimariji compare them.

    Longest shared beginning of the compared sounds first; ties in poem order.
    """
    keys = {p.number: kimariji.comparison_keys_of(p.number) for p in catalogue.poems()}
    own = keys[number]

    def shared(other: int) -> int:
        return kimariji.shared_prefix(own, keys[other])

    others = sorted((n for n in keys if n != number), key=lambda n: (-shared(n), n))
    return others[:count]
