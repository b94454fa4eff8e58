import random
from collections import Counter

from poems.catalogue import poems
from poems.kimariji import (
    comparison_keys_of,
    dynamic_kimariji,
    kimariji_kana,
    kimariji_said,
    shared_prefix,
    static_kimariji,
)

ALL = range(1, 101)


def test_distribution_over_the_hundred():
    counts = Counter(static_kimariji(n) for n in ALL)
    assert dict(counts) == {1: 7, 2: 42, 3: 37, 4: 6, 5: 2, 6: 6}


def test_one_and_six_kana_poems():
    assert sorted(n for n in ALL if static_kimariji(n) == 1) == [18, 22, 57, 70, 77, 81, 87]
    assert "".join(kimariji_kana(n) for n in (87, 57, 18, 22, 70, 81, 77)) == "むめすふさほせ"
    assert sorted(n for n in ALL if static_kimariji(n) == 6) == [11, 15, 31, 50, 64, 76]


def test_voicing_marks_count():
    # おく (5) and おぐ (26, をぐら said おぐら) differ only by a voicing mark.
    assert kimariji_said(5) == "おく"
    assert kimariji_said(26) == "おぐ"
    assert static_kimariji(5) == static_kimariji(26) == 2


def test_sound_not_spelling():
    # あふこ (44) is said おおこ: it shares おお with おほえ (60) and おほけ (95).
    assert kimariji_kana(44) == "あふこ"
    assert static_kimariji(44) == 3
    assert static_kimariji(60) == static_kimariji(95) == 3


def test_dynamic_kimariji_shrinks_as_poems_are_read():
    # ちはやぶる (17), ちぎりきな (42), ちぎりおきし (75)
    assert static_kimariji(75) == 4
    assert dynamic_kimariji(75, read={42}) == 2
    assert kimariji_kana(75, dynamic_kimariji(75, read={42})) == "ちぎ"
    # あさぼらけう (64) read: あさぼらけあ (31) decided at あさぼ
    assert static_kimariji(31) == 6
    assert kimariji_kana(31, dynamic_kimariji(31, read={64})) == "あさぼ"


def test_last_of_the_a_poems_needs_only_a():
    a_poems = [p.number for p in poems() if p.kami_sounds[0] == "あ"]
    assert len(a_poems) == 16
    last, *others = a_poems
    assert dynamic_kimariji(last, read=others) == 1


def test_reading_a_poem_never_lengthens_another():
    read: set[int] = set()
    for n in (42, 64, 17, 5, 44, 60):
        before = {m: dynamic_kimariji(m, read) for m in ALL if m not in read}
        read.add(n)
        for m in ALL:
            if m not in read:
                assert dynamic_kimariji(m, read) <= before[m]


def test_dynamic_kimariji_agrees_with_comparing_every_unread_poem():
    """The longest-first rival table gives what comparing the poem with every unread poem
    gives, for random read sets of every size (and a read set given as a list)."""

    def compared(number, read):
        own = comparison_keys_of(number)
        rivals = [m for m in ALL if m != number and m not in read]
        longest = max((shared_prefix(own, comparison_keys_of(m)) for m in rivals), default=0)
        return min(longest + 1, len(own))

    rng = random.Random(26)
    for size in [*range(0, 100, 3), 99]:
        read = set(rng.sample(ALL, size))
        for number in ALL:
            assert dynamic_kimariji(number, read) == compared(number, read), (number, size)
        assert dynamic_kimariji(17, sorted(read)) == compared(17, read)
