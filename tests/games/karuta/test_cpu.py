"""The five CPU levels: the strength ladder, their speed, their otetsuki, their sends."""

from __future__ import annotations

import dataclasses
import random

import pytest

from gamekit import InvalidActionError
from games.karuta import cpu, engine, simulate

LADDER_GAMES = 150  # per adjacent pair; a few hundred games in all, well under 30 s
LADDER_SEED = 20261129


@pytest.fixture(scope="module")
def ladder():
    result = simulate.Ladder(levels=cpu.LEVEL_ORDER, games=LADDER_GAMES)
    for weaker, stronger in zip(cpu.LEVEL_ORDER, cpu.LEVEL_ORDER[1:], strict=False):
        simulate.match_up(stronger, weaker, LADDER_GAMES, LADDER_SEED, ladder=result)
    simulate.match_up("meijin", "nyumon", 100, LADDER_SEED + 1, ladder=result)
    return result


@pytest.mark.parametrize(
    ("stronger", "weaker"), list(zip(cpu.LEVEL_ORDER[1:], cpu.LEVEL_ORDER, strict=False))
)
def test_each_level_beats_the_one_below_in_at_least_70_percent(ladder, stronger, weaker):
    assert ladder.played[(stronger, weaker)] >= LADDER_GAMES
    assert ladder.win_rate(stronger, weaker) >= 0.70


def test_master_beats_novice_in_at_least_99_percent(ladder):
    assert ladder.played[("meijin", "nyumon")] >= 100
    assert ladder.win_rate("meijin", "nyumon") >= 0.99


def test_master_takes_at_champion_speed_and_levels_are_ordered(ladder):
    speeds = [ladder.figures(level)["mean_after_kimariji_ms"] for level in cpu.LEVEL_ORDER]
    assert 100 <= speeds[-1] <= 300
    assert speeds == sorted(speeds, reverse=True)  # stronger levels are faster
    assert speeds[0] >= 2000  # 入門 leaves time to read the whole upper verse
    otetsuki = [ladder.figures(level)["otetsuki_rate"] for level in cpu.LEVEL_ORDER]
    assert otetsuki[0] > otetsuki[2] > otetsuki[4]
    assert otetsuki[-1] < 0.01  # 名人 almost never errs


def test_the_table_documents_every_level_once():
    assert cpu.LEVEL_ORDER == engine.LEVEL_KEYS
    reactions = [cpu.LEVELS[k].reaction_ms for k in cpu.LEVEL_ORDER]
    assert reactions == sorted(reactions, reverse=True)


def _position_for(poem, where_a, where_b):
    queue = [poem, *(n for n in range(1, 101) if n != poem)]
    return engine.situation([[where_a, [], []], [where_b, [], []]], queue)


def test_the_cpu_touches_after_the_deciding_kana_plus_reaction_and_movement():
    s = _position_for(18, [18], [1])  # すみのえの: 1-kana kimariji, on seat 0's side
    view = engine.view(s, 1)
    decided = view["reading"]["decided"]
    times = []
    for i in range(200):
        action = cpu.cpu_policy(view, 1, "meijin", random.Random(i))
        if action["card"] == 18:
            times.append(action["t"] - decided)
    assert len(times) >= 190
    assert all(times_ >= cpu.LEVELS["meijin"].reaction_min_ms for times_ in times)
    assert 100 <= sum(times) / len(times) <= 350


def test_the_near_side_is_quicker_to_reach_than_the_far_side():
    params = cpu.LEVELS["futsu"]
    near = engine.view(_position_for(18, [2], [18]), 1)
    far = engine.view(_position_for(18, [18], [2]), 1)
    assert cpu.movement_ms(near, 1, 18, params) < cpu.movement_ms(far, 1, 18, params)


def test_a_weak_cpu_waits_for_the_static_kimariji_a_strong_one_for_the_dynamic():
    # After あさぼらけあ (31) is read, あさぼらけう (64) is decided at あさぼ, not at its 6th kana.
    rest = [n for n in range(1, 101) if n not in (31, 64, 2)]
    s = engine.situation([[[64], [], []], [[2], [], []]], [64, 2, *rest], read=[31])
    view = engine.view(s, 1)
    kana_t = view["reading"]["kami"]["t"]
    assert view["reading"]["kimariji"] == 3 and view["reading"]["static_kimariji"] == 6
    # Without early guesses, to see when each level believes the poem is decided.
    yowai = dataclasses.replace(cpu.LEVELS["yowai"], guess_rate=0.0)
    meijin = dataclasses.replace(cpu.LEVELS["meijin"], guess_rate=0.0)
    weak = [cpu.plan_touch(view, 1, yowai, random.Random(i)) for i in range(50)]
    strong = [cpu.plan_touch(view, 1, meijin, random.Random(i)) for i in range(50)]
    assert all(a["card"] == 64 for a in weak + strong)
    assert min(a["t"] for a in weak) > kana_t[5]
    assert sum(a["t"] < kana_t[5] for a in strong) >= 45


def test_a_dead_card_makes_the_cpu_pass_unless_it_guesses():
    rest = [n for n in range(1, 101) if n not in (1, 2, 3)]
    s = engine.situation([[[1], [], []], [[2], [], []]], [3, 1, 2, *rest])
    view = engine.view(s, 1)
    actions = [cpu.cpu_policy(view, 1, "meijin", random.Random(i)) for i in range(100)]
    assert all(a == {"type": "pass"} for a in actions)


def test_strong_cpus_split_cards_that_share_a_beginning_when_sending():
    # Seat 1 holds むらさめの (87, one kana) and the pair あさぼらけあ/う (31, 64).
    rest = [n for n in range(1, 101) if n not in (31, 64, 87, 5)]
    s = engine.situation([[[5], [], []], [[87, 31], [64], []]], [5, 87, 31, 64, *rest])
    s, _ = engine.apply(s, 0, {"type": "pass"})
    s, _ = engine.apply(s, 1, {"type": "touch", "card": 5, "t": 300})  # takes on the far side
    assert s["phase"] == "send" and s["send"] == {"from": 1, "to": 0, "remaining": 1}
    view = engine.view(s, 1)
    chosen = {cpu.cpu_policy(view, 1, "meijin", random.Random(i))["card"] for i in range(30)}
    assert chosen <= {31, 64}
    random_sends = {cpu.cpu_policy(view, 1, "nyumon", random.Random(i))["card"] for i in range(60)}
    assert 87 in random_sends


def test_cpu_is_ready_at_once_and_refuses_unknown_levels():
    s = engine.new_state({"mode": "competitive", "memorise_seconds": 900}, [{}, {}], 1)
    assert cpu.cpu_policy(engine.view(s, 1), 1, "tsuyoi", random.Random(0)) == {"type": "ready"}
    with pytest.raises(InvalidActionError):
        cpu.cpu_policy(engine.view(s, 1), 1, "god", random.Random(0))


def test_chirashi_cpus_play_a_whole_game():
    final = simulate.play(("meijin", "futsu", "nyumon"), seed=4, settings={"mode": "chirashi"})
    res = engine.result(final)
    assert res["places"][0] == 1 and sum(res["scores"]) <= 100
    assert res["scores"][0] > res["scores"][2]
