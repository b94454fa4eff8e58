"""Game numbers: a short code a person can read out, type and send, that fixes a game.

Two forms, both read anywhere a number is typed (shown with the hyphen; typed with or
without it, in any case):

- The rules' short form ``SPT-SS``, e.g. their own example ``A3N-1K``: a 3-player table
  with calm CPUs. Five symbols, a 15-bit seed, no check symbol.
- The long, checked form ``SPT-SSSC``, e.g. ``A3N-1K02``: a 20-bit seed and a check symbol.
  This is the form the site writes (the result screen, game links). A short number is the
  long one whose last seed symbol is 0: ``A3N-1K`` deals as ``A3N-1K0`` plus its check
  symbol (``A3N-1K02``), the spelling it is rewritten in once it is read.

- ``P`` (2nd): the number of players, a digit 2–5.
- ``T`` (3rd): the table — who the other seats are, by the rules' letters: ``N`` calm
  (冷静, as in ``A3N-1K``), ``M`` reckless (無謀, mubō), ``H`` ruthless (非情, hijō); or ``P``
  for people only (pass-and-play, friends). ``R`` (how the site wrote calm before it
  followed the rules) still reads as calm, so numbers handed out then keep working.
- ``S`` (1st, then after the hyphen): the seed in Crockford's base 32 (digits and capitals
  without I, L, O, U, so nothing reads as something else), high symbols first.
- ``C`` (last, long form only): a check symbol. It is the sum, over GF(32), of each other
  symbol's value times a different power of a primitive element — so any single mistyped
  symbol, and any two neighbours swapped, change it: a typo is caught rather than starting
  another game. The short form has no such symbol: a typo in its player count or table
  letter is refused, but a mistyped seed symbol opens another deal.

Lenient input, as Crockford's scheme intends: lower case is upper case, ``I`` and ``L`` read
as ``1``, ``O`` as ``0``; spaces and hyphens are ignored. Pure Python, no Django.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32
VALUE = {symbol: n for n, symbol in enumerate(ALPHABET)}
ALIASES = {"I": "1", "L": "1", "O": "0"}
SEED_BITS = 20
SEED_SYMBOLS = 4
LENGTH = 7  # symbols, without the hyphen
SHORT_LENGTH = 5  # the rules' form: 3 seed symbols (15 bits), no check symbol
PLAYERS = range(2, 6)
TABLES = {"M": "reckless", "N": "calm", "H": "ruthless", "P": None}
TABLE_OF = {personality: letter for letter, personality in TABLES.items()}
LEGACY_TABLES = {"R": "calm"}  # read, never written

_POLY = 0b100101  # x^5 + x^2 + 1, primitive: x (= 2) generates GF(32)'s 31 non-zero elements


# Stretching the number's seed into the deal's: a game number holds only SEED_BITS, so anyone
# with this (public) code could otherwise try every seed against what they see of a game —
# their own hand's card ids, the first cards drawn — and find the whole deck in a second.
# scrypt makes each guess cost ~0.1 s and 16 MiB: trying a million seeds takes about a day of
# CPU, far longer than a game lasts. (The number itself is shown only once the game is over.)
_STRETCH = {"salt": b"bakudan-deal-v1", "n": 2**14, "r": 8, "p": 1, "dklen": 8}


@functools.lru_cache(maxsize=256)
def deal_seed(seed: int) -> int:
    """The engine's seed for the deal fixed by a game number's seed (slow on purpose)."""
    if not 0 <= seed < 2**SEED_BITS:
        raise ValueError(f"the seed must be from 0 to {2**SEED_BITS - 1}")
    digest = hashlib.scrypt(str(seed).encode(), maxmem=64 * 2**20, **_STRETCH)
    return int.from_bytes(digest, "big")


class GameNumberError(ValueError):
    """A game number that cannot be read; `code` says what is wrong (for translations)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class GameNumber:
    players: int
    cpu: str | None  # the CPU personality, None for a table of people
    seed: int

    def __post_init__(self) -> None:
        if self.players not in PLAYERS:
            raise ValueError(f"a game number is for 2 to 5 players, not {self.players}")
        if self.cpu not in TABLE_OF:
            raise ValueError(f"unknown CPU personality {self.cpu!r}")
        if not 0 <= self.seed < 2**SEED_BITS:
            raise ValueError(f"the seed must be from 0 to {2**SEED_BITS - 1}")

    def __str__(self) -> str:
        return encode(self.players, self.cpu, self.seed)


def _gf_mul(a: int, b: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & 0b100000:
            a ^= _POLY
    return product


_POWERS = [1]
for _ in range(LENGTH - 2):
    _POWERS.append(_gf_mul(_POWERS[-1], 2))


def check_symbol(symbols: str) -> str:
    """The check symbol for the first six symbols (already normalised)."""
    total = 0
    for power, symbol in zip(_POWERS, symbols, strict=True):
        total ^= _gf_mul(VALUE[symbol], power)
    return ALPHABET[total]


def encode(players: int, cpu: str | None, seed: int) -> str:
    GameNumber(players, cpu, seed)  # validates
    seed_symbols = ""
    for shift in range(SEED_BITS - 5, -1, -5):
        seed_symbols += ALPHABET[(seed >> shift) & 31]
    body = seed_symbols[0] + str(players) + TABLE_OF[cpu] + seed_symbols[1:]
    full = body + check_symbol(body)
    return f"{full[:3]}-{full[3:]}"


def normalise(text: str) -> str:
    """The symbols of a typed number, upper case, aliases resolved, separators dropped."""
    symbols = "".join(ch for ch in text.upper() if ch not in " -\t")
    return "".join(ALIASES.get(ch, ch) for ch in symbols)


def decode(text: str) -> GameNumber:
    """Read a game number; GameNumberError says what is wrong with a bad one."""
    if not isinstance(text, str) or not text.strip():
        raise GameNumberError("empty", "the game number is empty")
    symbols = normalise(text)
    if len(symbols) not in (SHORT_LENGTH, LENGTH):
        raise GameNumberError(
            "length",
            f"a game number has {SHORT_LENGTH} characters (like A3N-1K) or {LENGTH} "
            f"(like A3N-1K02), this one has {len(symbols)}",
        )
    bad = [ch for ch in symbols if ch not in VALUE]
    if bad:
        raise GameNumberError("character", f"{bad[0]!r} cannot appear in a game number")
    if not symbols[1].isdigit() or int(symbols[1]) not in PLAYERS:
        raise GameNumberError(
            "players", f"the second character is the number of players, 2 to 5, not {symbols[1]}"
        )
    tables = {**TABLES, **LEGACY_TABLES}
    if symbols[2] not in tables:
        raise GameNumberError(
            "table",
            f"the third character is N, M, H (the CPU) or P (people only), not {symbols[2]}",
        )
    if len(symbols) == LENGTH:
        if check_symbol(symbols[:-1]) != symbols[-1]:
            raise GameNumberError("check", "the number does not add up: a character is mistyped")
        seed_symbols = symbols[0] + symbols[3:-1]
    else:  # the short form is the long one with a last seed symbol 0: A3N-1K is A3N-1K0…
        seed_symbols = symbols[0] + symbols[3:] + "0"
    seed = 0
    for symbol in seed_symbols:
        seed = seed * 32 + VALUE[symbol]
    return GameNumber(int(symbols[1]), tables[symbols[2]], seed)
