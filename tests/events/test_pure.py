"""Knockout brackets, Swiss rounds and arena scoring, alone (events/knockout.py, swiss.py,
arena.py): no Django, no clock."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest

from events import arena, knockout, swiss, tables
from events.knockout import BracketError, Entrant, Pair

PURE = ("knockout.py", "swiss.py", "arena.py", "tables.py")


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_import_no_django(name):
    path = Path(__file__).resolve().parents[2] / "platform" / "events" / name
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module == "lobby.pairing":
            imported.add(node.module)  # the lobby's pure pairing module (tables)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0] if node.level == 0 else ".")
    allowed = {"__future__", "collections", "dataclasses", "networkx", "caissify_pairings", "."}
    allowed.add("lobby.pairing")
    assert imported <= allowed


def field(n, seed=0):
    rng = random.Random(seed)
    return [
        Entrant(id=i, rating=rng.choice([1400, 1500, 1600, 1700, 1800]), order=i) for i in range(n)
    ]


# ---- knockout -------------------------------------------------------------------------


def test_seeding_is_rating_then_entry_order():
    entrants = [
        Entrant("a", 1500, 0),
        Entrant("b", 1700, 1),
        Entrant("c", 1500, 2),
        Entrant("d", 1600, 3),
    ]
    assert knockout.seed(entrants) == ["b", "d", "a", "c"]


def test_slot_order_is_the_standard_one():
    assert knockout.slot_seeds(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout.slot_seeds(4) == [1, 4, 2, 3]


def test_a_single_entrant_is_not_a_bracket():
    with pytest.raises(BracketError):
        knockout.first_round(["x"])


def play_out(n, seed):
    """Run a whole bracket with a random winner of every board; return what happened."""
    rng = random.Random(seed)
    seeded = knockout.seed(field(n, seed))
    pairs = knockout.first_round(seeded)
    rounds = []
    while True:
        results = {
            position: rng.choice([pair.a, pair.b])
            for position, pair in enumerate(pairs)
            if not pair.is_bye
        }
        rounds.append((pairs, knockout.winners_of(pairs, results)))
        if len(pairs) == 1:
            return seeded, rounds, knockout.champion(pairs, results)
        pairs = knockout.next_round(pairs, results)


@pytest.mark.parametrize("n", [*range(2, 34), 63, 64, 65, 100, 127, 128, 129, 200, 255, 256])
def test_knockout_brackets_from_2_to_256(n):
    seeded, rounds, champ = play_out(n, seed=n)
    size = knockout.bracket_size(n)
    assert size >= n > size // 2
    assert len(rounds) == knockout.rounds_for(n) == size.bit_length() - 1
    # Byes: exactly size - n, all in round 1, to seeds 1 .. size - n.
    first = rounds[0][0]
    bye_takers = [pair.a for pair in first if pair.is_bye]
    assert sorted(bye_takers, key=seeded.index) == seeded[: size - n]
    assert all(not pair.is_bye for later, _ in rounds[1:] for pair in later)
    # Every entrant still in appears exactly once per round, and nobody out comes back.
    alive = set(seeded)
    for pairs, winners in rounds:
        appearing = [x for pair in pairs for x in (pair.a, pair.b) if x is not None]
        assert len(appearing) == len(set(appearing))
        assert set(appearing) == alive
        assert len(winners) == len(pairs)
        alive = set(winners)
    assert alive == {champ}
    assert len(rounds[-1][0]) == 1


def test_top_seeds_meet_late_when_favourites_win():
    seeded = list(range(1, 17))  # ids equal seeds
    pairs = knockout.first_round(seeded[:13])  # 16-bracket, 3 byes to seeds 1..3
    assert [p for p in pairs if p.is_bye] == [Pair(1, None), Pair(2, None), Pair(3, None)]
    semis = None
    while len(pairs) > 1:
        results = {i: min(p.a, p.b) for i, p in enumerate(pairs) if not p.is_bye}
        pairs = knockout.next_round(pairs, results)
        if len(pairs) == 2:
            semis = pairs
    assert semis == [Pair(1, 4), Pair(2, 3)]
    assert pairs == [Pair(1, 2)]


def test_an_undecided_or_wrong_result_is_refused():
    pairs = knockout.first_round([1, 2, 3, 4])
    with pytest.raises(BracketError):
        knockout.next_round(pairs, {0: 1})
    with pytest.raises(BracketError):
        knockout.next_round(pairs, {0: 1, 1: 4})


# ---- Swiss ----------------------------------------------------------------------------


def run_swiss(n, total_rounds, seed):
    rng = random.Random(seed)
    entrants = field(n, seed)
    rounds = []
    for _ in range(total_rounds):
        boards = swiss.pair_round(entrants, rounds, total_rounds)
        rounds.append(
            [b if b.is_bye else swiss.Game(b.a, b.b, rng.choice([b.a, b.b])) for b in boards]
        )
    return entrants, rounds


@pytest.mark.parametrize(("n", "total"), [(2, 1), (3, 3), (4, 3), (7, 5), (8, 5), (13, 6), (24, 7)])
def test_swiss_never_repeats_a_pair_and_gives_one_bye_each(n, total):
    _entrants, rounds = run_swiss(n, total, seed=n * 31 + total)
    met = set()
    byes = []
    for games in rounds:
        seen = [x for g in games for x in (g.a, g.b) if x is not None]
        assert sorted(seen) == list(range(n))  # everyone once a round
        for g in games:
            if g.is_bye:
                byes.append(g.a)
                continue
            pair = frozenset((g.a, g.b))
            assert pair not in met
            met.add(pair)
    assert len(byes) == len(set(byes)) == (total if n % 2 else 0)


def test_swiss_first_round_is_top_half_against_bottom_half():
    entrants = [Entrant(i, 2000 - i * 10, i) for i in range(8)]
    boards = swiss.pair_round(entrants, [], 3)
    assert sorted(tuple(sorted((b.a, b.b))) for b in boards) == [(0, 4), (1, 5), (2, 6), (3, 7)]


def test_swiss_bye_goes_to_the_lowest_without_one():
    entrants = [Entrant(i, 2000 - i * 10, i) for i in range(5)]
    boards = swiss.pair_round(entrants, [], 3)
    assert [b.a for b in boards if b.is_bye] == [4]


def test_swiss_scores_and_tie_breaks():
    # Four players, two rounds, hand-made so every tie-break is needed.
    entrants = [Entrant(i, 1500, i) for i in (1, 2, 3, 4)]
    G = swiss.Game
    rounds = [
        [G(1, 2, 1), G(3, 4, 3)],
        [G(1, 3, 3), G(2, 4, 2)],
    ]
    rows = swiss.standings(entrants, rounds)
    by_id = {r.id: r for r in rows}
    assert {i: r.score for i, r in by_id.items()} == {1: 1, 2: 1, 3: 2, 4: 0}
    # Buchholz: 1 met 2 (1) and 3 (2) = 3; 2 met 1 (1) and 4 (0) = 1.
    assert by_id[1].buchholz == 3 and by_id[2].buchholz == 1
    # Sonneborn-Berger: 1 beat 2 (1); 2 beat 4 (0); 3 beat 4 (0) and 1 (1).
    assert (by_id[1].sonneborn_berger, by_id[2].sonneborn_berger, by_id[3].sonneborn_berger) == (
        1,
        0,
        1,
    )
    assert [r.id for r in rows] == [3, 1, 2, 4]


def test_swiss_equal_on_everything_falls_back_to_seed():
    entrants = [Entrant(1, 1500, 0), Entrant(2, 1600, 1)]
    rows = swiss.standings(entrants, [])
    assert [r.id for r in rows] == [2, 1]


def test_swiss_too_many_rounds_for_the_field_is_refused():
    entrants = [Entrant(i, 1500, i) for i in range(4)]
    rounds = []
    for _ in range(3):
        boards = swiss.pair_round(entrants, rounds, 4)
        rounds.append([swiss.Game(b.a, b.b, b.a) for b in boards])
    with pytest.raises(swiss.SwissError):
        swiss.pair_round(entrants, rounds, 4)


# ---- arena ----------------------------------------------------------------------------


def test_arena_scores_and_streaks():
    W, L, D = arena.WIN, arena.LOSS, arena.DRAW
    assert arena.tally_of([W]).score == 2
    assert arena.tally_of([W, W]).score == 4
    assert arena.tally_of([W, W, W]).score == 8  # third win in a row doubles
    assert arena.tally_of([W, W, W, W]).score == 12
    assert arena.tally_of([W, W, L, W]).score == 6  # a loss puts the fire out
    assert arena.tally_of([W, W, D]).score == 6  # a draw on fire scores 2, then out
    assert arena.tally_of([W, W, D, W, W, W]).score == 6 + 2 + 2 + 4
    tally = arena.tally_of([L, W, W])
    assert tally.on_fire and tally.games == 3 and tally.wins == 2
    with pytest.raises(ValueError):
        arena.record(arena.Tally(), "resign")


def test_arena_pairs_neighbours_in_the_standings():
    waiting = [arena.Waiting(f"p{place}", place) for place in (1, 2, 5, 6, 40, 41)]
    assert sorted(arena.pair_wave(waiting)) == [("p1", "p2"), ("p40", "p41"), ("p5", "p6")]


def test_arena_does_not_pair_the_same_two_again_at_once():
    waiting = [
        arena.Waiting("a", 1, last_opponent="b"),
        arena.Waiting("b", 2, last_opponent="a"),
        arena.Waiting("c", 3),
        arena.Waiting("d", 4),
    ]
    pairs = {frozenset(p) for p in arena.pair_wave(waiting)}
    assert frozenset(("a", "b")) not in pairs and len(pairs) == 2
    # Two alone may meet again rather than wait for nobody.
    assert arena.pair_wave(waiting[:2]) == [("a", "b")]


def test_arena_odd_one_waits_and_everyone_else_is_paired_once():
    waiting = [arena.Waiting(i, i + 1) for i in range(501)]
    pairs = arena.pair_wave(waiting)
    ids = list(itertools.chain.from_iterable(pairs))
    assert len(pairs) == 250 and len(set(ids)) == 500


def test_events_reach_games_only_through_the_plugin_contract():
    folder = Path(__file__).resolve().parents[2] / "platform" / "events"
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n == "games" or n.startswith("games.") for n in names), path


# ---- tables (genpei 2 v 2, Bozu, Bakudan) ------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("n", range(1, 40))
def test_tables_seat_everyone_once_with_as_few_cpus_as_can_be(n, seats):
    ordered = [f"p{i}" for i in range(n)]
    seated = tables.seat_tables(ordered, seats)
    assert all(len(t) == seats for t in seated)
    people = [x for t in seated for x in t if x is not None]
    assert sorted(people) == sorted(ordered) and len(people) == n
    assert len(seated) == -(-n // seats)  # as few tables as hold everyone
    cpus = [t.count(None) for t in seated]
    assert max(cpus) - min(cpus) <= 1 and cpus == sorted(cpus)  # spread, later tables
    # Neighbours in the order sit together: the leaders at the first table.
    assert [x for t in seated for x in t if x is not None] == ordered


def test_genpei_tables_are_the_two_most_even_teams():
    ratings = {"a": 1900, "b": 1700, "c": 1600, "d": 1800, "e": 1500, "f": 1400}
    teams = (2, 2)
    # 1900 + 1600 against 1800 + 1700 (a + d together would be the least even).
    assert tables.seat_tables(list("adbc"), 4, ratings, teams) == [["a", "c", "d", "b"]]
    # Three people and a CPU: the CPU's partner is the one whose side comes closest
    # (the strongest, a, against b + c).
    assert tables.seat_tables(list("abc"), 4, ratings, teams) == [["b", "c", "a", None]]
    # Two people and two CPUs: a person and a CPU on each side, never both people
    # against two CPUs.
    assert tables.seat_tables(list("ef"), 4, ratings, teams) == [["e", None, "f", None]]


def test_points_are_the_seats_behind_you():
    assert tables.points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert tables.points([1, 1, 3, 4]) == [2, 2, 1, 0]
    assert tables.points([1, 1, 3, 3]) == [2, 2, 0, 0]  # genpei: the winning team
    assert tables.points([2, 1]) == [0, 1]  # one against one: a win is 1


def test_table_standings_points_then_firsts_then_rating():
    entrants = [("a", 1500, 0), ("b", 1600, 1), ("c", 1500, 2), ("d", 1400, 3), ("e", 1500, 4)]
    played = [
        tables.Played(["a", "b", "c", None], [1, 2, 3, 4]),  # a 3, b 2, c 1
        tables.Played(["d", "e", None, "x"], [2, 1, 3, 4]),  # e 3, d 2; x withdrawn: skipped
        tables.Played(["b", "c", "d", "e"], [4, 1, 2, 3]),  # c 3, d 2, e 1, b 0
    ]
    rows = tables.standings(entrants, played)
    # c, e and d have 4 points; c and e a first place each, d none; c and e are equal on
    # rating too, and c joined first.
    assert [(r.id, r.points, r.firsts, r.games) for r in rows] == [
        ("c", 4, 1, 2),
        ("e", 4, 1, 2),
        ("d", 4, 0, 2),
        ("a", 3, 1, 1),
        ("b", 2, 0, 2),
    ]


def test_a_table_place_as_an_arena_result():
    assert [tables.arena_result(p, 4) for p in (1, 2, 3, 4)] == [
        arena.WIN,
        arena.DRAW,
        arena.LOSS,
        arena.LOSS,
    ]
    assert [tables.arena_result(p, 4) for p in (1, 1, 3, 3)][1] == arena.WIN  # genpei team
    assert [tables.arena_result(p, 3) for p in (1, 2, 3)] == [arena.WIN, arena.LOSS, arena.LOSS]


def test_tables_mix_seats_fewer_people_who_have_met_near_their_place():
    first = [tables.Played(list(range(k, k + 4)), [1, 2, 3, 4]) for k in (0, 4, 8, 12)]
    met = tables.met_pairs(first)
    assert len(met) == 4 * 6
    # A second round's standings that would put two pairs of old table mates at each table.
    order = [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
    plain = tables.seat_tables(order, 4)
    assert sum(tables.repeats(t, met) for t in plain) == 8
    mixed = tables.seat_tables(order, 4, met=met)
    assert sum(tables.repeats(t, met) for t in mixed) < 8
    assert sorted(x for t in mixed for x in t) == list(range(16))
    where = {x: i for i, t in enumerate(plain) for x in t}
    assert all(abs(where[x] - i) <= 3 for i, t in enumerate(mixed) for x in t)
    assert tables.seat_tables(order, 4, met=set()) == plain  # nobody has met: as ordered


def test_tables_mix_never_moves_a_cpu_seat():
    met = {frozenset((1, 2)), frozenset((4, 5))}
    mixed = tables.mix([[1, 2, None], [4, 5, 6]], met)
    assert mixed[0][2] is None and sum(tables.repeats(t, met) for t in mixed) == 0
