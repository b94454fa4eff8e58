"""Game numbers: encode/decode, lenient reading, and every typo the check symbol must catch."""

from __future__ import annotations

import itertools

import pytest

from games.bakudan.number import (
    ALPHABET,
    SEED_BITS,
    TABLES,
    VALUE,
    GameNumber,
    GameNumberError,
    check_symbol,
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
    assert encode(3, "calm", 5)[2] == "N"  # the rules' letter (A3N-1K)
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
        ("A3N-1K7", "length", "has 6"),
        ("A3N-1", "length", "has 4"),
        ("A3N-1K7QQ", "length", "has 8"),
        ("A3N-1KU7", "character", "'U'"),
        ("A3N-1K!7", "character", "'!'"),
        ("A7N-1K7Q", "players", "2 to 5, not 7"),
        ("AXN-1K7Q", "players", "not X"),
        ("A3Z-1K7Q", "table", "not Z"),
        ("A7N-1K", "players", "2 to 5, not 7"),  # the short form checks these two
        ("A3Z-1K", "table", "not Z"),
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


def test_the_rules_example_opens_a_three_player_table_with_calm_cpus():
    number = decode("A3N-1K")
    assert (number.players, number.cpu) == (3, "calm")
    # The short form is the long one with a last seed symbol 0, written with its check.
    assert str(number) == "A3N-1K02" and decode("A3N-1K02") == number
    assert number.seed == ((VALUE["A"] * 32 + VALUE["1"]) * 32 + VALUE["K"]) * 32


@pytest.mark.parametrize(
    ("text", "players", "cpu"),
    [
        ("A3N-1K", 3, "calm"),
        ("a3n1k", 3, "calm"),
        ("A 3 N - l K", 3, "calm"),  # lenient: spaces, lower case, l for 1
        ("Z5M-00", 5, "reckless"),
        ("22H-ZZ", 2, "ruthless"),
        ("04P-K9", 4, None),
        ("A3N-1K02", 3, "calm"),
    ],
)
def test_every_documented_form_decodes_to_its_table(text, players, cpu):
    number = decode(text)
    assert (number.players, number.cpu) == (players, cpu)
    assert decode(str(number)) == number  # its long spelling is the same game


def test_numbers_written_with_the_old_calm_letter_still_open_the_same_game():
    for seed in SEEDS:
        new = encode(3, "calm", seed).replace("-", "")
        body = new[:2] + "R" + new[3:-1]
        old = body + check_symbol(body)
        assert decode(old) == decode(new) == GameNumber(3, "calm", seed)
    assert decode("A3R-1K") == decode("A3N-1K")


def test_a_typo_in_a_short_seed_opens_another_deal_at_the_same_table():
    # What the rules page says: no check symbol in the short form.
    typo = decode("A3N-1M")
    assert (typo.players, typo.cpu) == (3, "calm") and typo.seed != decode("A3N-1K").seed
