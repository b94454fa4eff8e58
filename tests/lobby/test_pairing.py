"""The pool wave's pairing rule, alone (lobby/pairing.py, lobby/timing.py)."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest

from lobby import pairing, timing
from lobby.pairing import Member

PURE = ("pairing.py", "timing.py", "cooldown.py", "fairplay.py")


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_import_no_django(name):
    path = Path(__file__).resolve().parents[2] / "platform" / "lobby" / name
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= {
        "__future__",
        "collections",
        "dataclasses",
        "datetime",
        "itertools",
        "networkx",
        "rustworkx",
    }


def m(id, rating, **kw):
    return Member(id=id, person=f"p{id}", rating=rating, **kw)


def gaps(pairs):
    return sorted(abs(a.rating - b.rating) for a, b in pairs)


def test_closest_ratings_meet():
    pairs = pairing.pair_wave([m(1, 1500), m(2, 1900), m(3, 1520), m(4, 1880)])
    assert [(a.id, b.id) for a, b in pairs] == [(1, 3), (2, 4)]


def test_as_many_pairs_as_possible_before_smaller_gaps():
    # 2-3 is the closest pair, but taking it would leave 1 and 4 apart (gap 140 each way
    # is within the allowance, 1-4 is not): two pairs beat one good one.
    members = [m(1, 1400), m(2, 1500), m(3, 1505), m(4, 1610)]
    pairs = pairing.pair_wave(members)
    assert len(pairs) == 2
    assert {(a.id, b.id) for a, b in pairs} == {(1, 2), (3, 4)}


def test_matching_is_optimal_against_brute_force():
    rng = random.Random(7)
    for _ in range(40):
        members = [m(i, rng.gauss(1500, 150), misses=rng.randrange(4)) for i in range(8)]
        pairs = pairing.pair_wave(members)
        best = _brute_force(members)
        assert len(pairs) == best[0]
        score = sum(pairing.pair_score(a, b) for a, b in pairs)
        assert score == pytest.approx(best[1])


def _brute_force(members):
    """(most pairs, smallest total score) over every matching, by enumeration."""
    best = (0, 0.0)

    def walk(rest, count, score):
        nonlocal best
        if (count, -score) > (best[0], -best[1]):
            best = (count, score)
        if not rest:
            return
        first, others = rest[0], rest[1:]
        walk(others, count, score)  # first waits
        for i, other in enumerate(others):
            if pairing.may_meet(first, other):
                walk(
                    others[:i] + others[i + 1 :],
                    count + 1,
                    score + pairing.pair_score(first, other),
                )

    walk(list(members), 0, 0.0)
    return best


def test_allowance_grows_with_missed_waves():
    far = [m(1, 1500), m(2, 1800)]
    assert pairing.pair_wave(far) == []
    for misses in itertools.count():
        pairs = pairing.pair_wave([m(1, 1500, misses=misses), m(2, 1800, misses=misses)])
        if pairs:
            break
    assert pairing.START_GAP + pairing.GROWTH_PER_MISS * misses >= 300
    assert misses == 3  # 150 + 3 x 50


def test_a_long_wait_earns_the_closer_partner():
    # 2 waited 5 waves: its bonus makes 1-2 (gap 60) worth more than 1-3 (gap 30).
    members = [m(1, 1500), m(2, 1560, misses=5), m(3, 1470)]
    pairs = pairing.pair_wave(members)
    assert [(a.id, b.id) for a, b in pairs] == [(1, 2)]


def test_never_the_same_two_twice_in_a_row():
    members = [
        m(1, 1500, last_opponents=frozenset({"p2"})),
        m(2, 1500, last_opponents=frozenset({"p1"})),
    ]
    assert pairing.pair_wave(members) == []
    members.append(m(3, 1510))
    pairs = pairing.pair_wave(members)
    assert len(pairs) == 1 and 3 in {pairs[0][0].id, pairs[0][1].id}


def test_rating_range_is_respected_both_ways():
    a = m(1, 1500, rating_range=(1550, 1700))
    assert pairing.pair_wave([a, m(2, 1520)]) == []
    assert pairing.pair_wave([a, m(3, 1600)]) != []
    b = m(4, 1400, rating_range=(1000, 1450))
    assert pairing.pair_wave([b, m(5, 1500)]) == []


def test_flagged_accounts_meet_only_each_other():
    members = [m(1, 1500, flagged=True), m(2, 1500), m(3, 1510, flagged=True), m(4, 1505)]
    pairs = pairing.pair_wave(members)
    assert {(a.id, b.id) for a, b in pairs} == {(1, 3), (2, 4)}


def test_one_person_is_never_paired_with_themself():
    assert pairing.pair_wave([Member(1, "x", 1500), Member(2, "x", 1500)]) == []


def test_each_member_ends_in_at_most_one_pair_and_the_order_does_not_matter():
    rng = random.Random(3)
    members = [m(i, rng.gauss(1500, 300), misses=rng.randrange(10)) for i in range(200)]
    pairs = pairing.pair_wave(members)
    ids = [x.id for pair in pairs for x in pair]
    assert len(ids) == len(set(ids))
    assert pairing.pair_wave(list(reversed(members))) == pairs


def test_tables_are_filled_in_rating_order():
    members = [m(i, r) for i, r in enumerate([1500, 1900, 1510, 1880, 1520, 1890, 1700])]
    tables = pairing.wave(members, 3)
    assert [sorted(x.id for x in t) for t in tables] == [[0, 2, 4], [1, 3, 5]]


def test_a_table_skips_a_member_who_played_someone_there_last():
    members = [
        m(1, 1500, last_opponents=frozenset({"p2"})),
        m(2, 1501),
        m(3, 1502),
        m(4, 1503),
    ]
    tables = pairing.fill_tables(members, 3)
    assert [sorted(x.id for x in t) for t in tables] == [[1, 3, 4]]


def test_wave_timing():
    policy = timing.WavePolicy(interval=12, size=20, cpu_offer_after=20)
    assert not timing.wave_due(policy, 100, None, 1)  # one seeker: nobody to meet
    assert timing.wave_due(policy, 100, None, 2)
    assert not timing.wave_due(policy, 105, 100, 5)
    assert timing.wave_due(policy, 112, 100, 5)
    assert timing.wave_due(policy, 101, 100, 20)  # a full pool does not wait
    assert timing.next_wave_in(policy, 105, 100) == 7
    assert timing.expected_wait(policy, 105, 100, 0) is None
    assert timing.expected_wait(policy, 105, 100, 3) == 7
    assert timing.expected_wait(policy, 105, 100, 3, [4, 30, 9]) == 9
    assert not timing.offer_cpu(policy, 119.9, 100)
    assert timing.offer_cpu(policy, 120, 100)


def test_neighbours_split_by_a_window_edge_still_meet():
    # 23 members too far apart to meet anyone, then two equals: sorted by rating, the first
    # window ends between the two.
    singles = [m(i, 1000 * i) for i in range(pairing.WINDOW - 1)]
    twins = [m(100, 90_000), m(101, 90_000)]
    pairs = pairing.pair_wave(singles + twins)
    assert [(a.id, b.id) for a, b in pairs] == [(100, 101)]


def _total(pairs, members):
    ceiling = max(pairing.allowance(x) for x in members) + 1
    return len(pairs), sum(pairing.weight(a, b, ceiling) for a, b in pairs)


def test_compiled_matcher_equals_networkx_on_random_pools():
    # The compiled blossom and networkx's, on the same integer weights, over random pools
    # of up to one window with every kind of forbidden pair: the same number of pairs and
    # the same total weight (the pairs themselves may differ only between equal totals).
    rng = random.Random(39)
    for _ in range(120):
        size = rng.randrange(2, pairing.WINDOW + 1)
        members = []
        for i in range(size):
            rating = rng.gauss(1500, 200)
            members.append(
                m(
                    i,
                    rating,
                    misses=rng.randrange(6),
                    flagged=rng.random() < 0.1,
                    last_opponents=frozenset({f"p{rng.randrange(size)}"}),
                    rating_range=(rating - 120, rating + 400) if rng.random() < 0.2 else None,
                )
            )
        members.sort(key=lambda x: (x.rating, x.id))
        fast = pairing._match(members)
        reference = pairing.match_networkx(members)
        assert _total(fast, members) == _total(reference, members)
        assert all(pairing.may_meet(a, b) for a, b in fast)
        assert len({x.id for pair in fast for x in pair}) == 2 * len(fast)


def test_genpei_tables_are_split_into_the_most_even_teams():
    # In rating order a <= b <= c <= d the most even 2v2 is a + d against b + c: here
    # 1200 + 1900 (indexes 1, 2) against 1500 + 1400 (0, 3), index 0's team seated first.
    assert pairing.balanced_teams([1500, 1200, 1900, 1400], (2, 2)) == [0, 3, 1, 2]
    rng = random.Random(4)
    for _ in range(50):
        ratings = [rng.gauss(1500, 300) for _ in range(4)]
        order = pairing.balanced_teams(ratings, (2, 2))
        assert sorted(order) == [0, 1, 2, 3]
        gap = abs(sum(ratings[i] for i in order[:2]) - sum(ratings[i] for i in order[2:]))
        every = [
            abs(ratings[0] + ratings[j] - sum(ratings[k] for k in range(4) if k not in (0, j)))
            for j in (1, 2, 3)
        ]
        assert gap == pytest.approx(min(every))
    with pytest.raises(ValueError):
        pairing.balanced_teams([1500, 1500, 1500], (2, 2))
