"""Game numbers: encode/decode, lenient reading, and every typo the check symbol must catch."""

from __future__ import annotations

import itertools

import pytest

from games.bakudan.number import (
    ALPHABET,
    SEED_BITS,
    TABLES,
    GameNumber,
    GameNumberError,
    decode,
    encode,
)

SEEDS = [0, 1, 31, 32, 12345, 2**SEED_BITS - 1, 0b10101010101010101010]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("cpu", list(TABLES.values()))
def test_encode_then_decode_gives_the_table_back(players, cpu):
    for seed in SEEDS:
        text = encode(players, cpu, seed)
        assert re_shape(text)
        assert text[1] == str(players)
        assert decode(text) == GameNumber(players, cpu, seed)


def re_shape(text: str) -> bool:
    return len(text) == 8 and text[3] == "-" and all(ch in ALPHABET for ch in text.replace("-", ""))


def test_the_table_letter_is_readable():
    assert encode(3, "calm", 5)[2] == "R"
    assert encode(3, "reckless", 5)[2] == "M"
    assert encode(3, "ruthless", 5)[2] == "H"
    assert encode(3, None, 5)[2] == "P"


def test_reading_is_lenient_about_case_separators_and_look_alikes():
    text = encode(4, "calm", 0b00001_00000_00001_00000)  # symbols 1, 0, 1, 0
    assert text.startswith("1") and "0" in text
    loose = text.lower().replace("-", " ").replace("1", "l").replace("0", "o")
    assert decode(loose) == decode(text)
    assert decode(text.replace("-", "")) == decode(text)


def test_every_single_mistyped_symbol_is_caught():
    for text in (encode(3, "calm", 777), encode(5, None, 2**SEED_BITS - 1)):
        symbols = text.replace("-", "")
        for position, other in itertools.product(range(len(symbols)), ALPHABET):
            if other == symbols[position]:
                continue
            typo = symbols[:position] + other + symbols[position + 1 :]
            with pytest.raises(GameNumberError):
                decode(typo)


def test_every_swap_of_two_neighbours_is_caught():
    for seed in range(0, 2**SEED_BITS, 40_503):
        symbols = encode(2, "ruthless", seed).replace("-", "")
        for position in range(len(symbols) - 1):
            a, b = symbols[position], symbols[position + 1]
            if a == b:
                continue
            swapped = symbols[:position] + b + a + symbols[position + 2 :]
            with pytest.raises(GameNumberError):
                decode(swapped)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("", "empty", "empty"),
        ("   ", "empty", "empty"),
        ("A3R-1K7", "length", "has 6"),
        ("A3R-1K7QQ", "length", "has 8"),
        ("A3R-1KU7", "character", "'U'"),
        ("A3R-1K!7", "character", "'!'"),
        ("A7R-1K7Q", "players", "2 to 5, not 7"),
        ("AXR-1K7Q", "players", "not X"),
        ("A3Z-1K7Q", "table", "not Z"),
    ],
)
def test_a_bad_number_says_what_is_wrong(text, code, words):
    with pytest.raises(GameNumberError, match=words) as caught:
        decode(text)
    assert caught.value.code == code


def test_a_wrong_check_symbol_is_named():
    good = encode(3, "calm", 4242)
    wrong = good[:-1] + ("0" if good[-1] != "0" else "1")
    with pytest.raises(GameNumberError, match="mistyped") as caught:
        decode(wrong)
    assert caught.value.code == "check"


@pytest.mark.parametrize(
    ("players", "cpu", "seed"), [(1, None, 0), (6, None, 0), (3, "wild", 0), (3, None, -1),
                                 (3, None, 2**SEED_BITS)],
)  # fmt: skip
def test_encode_refuses_what_a_number_cannot_hold(players, cpu, seed):
    with pytest.raises(ValueError):
        encode(players, cpu, seed)
