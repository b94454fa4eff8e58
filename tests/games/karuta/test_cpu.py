"""The five CPU levels: the strength ladder, their speed, their otetsuki, their sends."""

from __future__ import annotations

import dataclasses
import random
import statistics

import pytest

from gamekit import InvalidActionError
from games.karuta import cpu, engine, sim, simulate

LADDER_GAMES = 800  # per pair, in the vectorised simulator (about a second a pair)
LADDER_SEED = 20261129
ADJACENT = list(zip(cpu.LEVEL_ORDER[1:], cpu.LEVEL_ORDER, strict=False))
TWO_APART = list(zip(cpu.LEVEL_ORDER[3:], cpu.LEVEL_ORDER[1:], strict=False))  # よわい–名人


@pytest.fixture(scope="module")
def ladder():
    result = simulate.Ladder(levels=cpu.LEVEL_ORDER, games=LADDER_GAMES)
    for i, (stronger, weaker) in enumerate([*ADJACENT, *TWO_APART]):
        sim.match_up(stronger, weaker, LADDER_GAMES, LADDER_SEED + i, ladder=result)
    sim.match_up("meijin", "nyumon", LADDER_GAMES, LADDER_SEED - 1, ladder=result)
    return result


@pytest.mark.parametrize(("stronger", "weaker"), ADJACENT)
def test_each_level_beats_the_one_below_in_65_to_80_percent(ladder, stronger, weaker):
    # A person who just beats a level should have a fair chance at the next one (issue 27).
    # Over seeds the adjacent pairs sit at 72–78%; at 800 games the sampling error is ±1.6%.
    assert ladder.played[(stronger, weaker)] >= LADDER_GAMES
    assert 0.65 <= ladder.win_rate(stronger, weaker) <= 0.80


@pytest.mark.parametrize(("stronger", "weaker"), TWO_APART)
def test_two_steps_up_is_still_beatable(ladder, stronger, weaker):
    assert ladder.win_rate(stronger, weaker) <= 0.95


def test_master_beats_novice_in_at_least_99_percent(ladder):
    assert ladder.win_rate("meijin", "nyumon") >= 0.99


def test_master_takes_at_champion_speed_and_levels_are_ordered(ladder):
    # Top players touch 0.1–0.2 s after the deciding sound (the published figure).
    meijin = ladder.figures("meijin")["after_decided"]
    assert 100 <= meijin["p50"] <= 250 and meijin["p10"] >= 50
    medians = [ladder.figures(level)["after_decided"]["p50"] for level in cpu.LEVEL_ORDER]
    assert medians == sorted(medians, reverse=True)  # stronger levels are faster
    otetsuki = [ladder.figures(level)["otetsuki_rate"] for level in cpu.LEVEL_ORDER]
    assert otetsuki[0] > otetsuki[2] > otetsuki[4]
    assert otetsuki[-1] < 0.01  # 名人 almost never errs


def test_novice_takes_only_after_the_upper_verse_has_ended(ladder):
    # The 入門 promise (docs/requirements.md §3): a beginner can read the whole upper verse
    # first; the issue asks for 90% of its takes after the held last kana, the model gives all.
    after_verse = ladder.after_verse["nyumon"]
    assert len(after_verse) > 10_000
    assert ladder.figures("nyumon")["after_verse"]["below_zero"] <= 0.10
    assert min(after_verse) >= _novice_margin()
    # …and the levels that know most kimariji take most cards while the verse is read.
    for level in ("futsu", "tsuyoi", "meijin"):
        assert ladder.figures(level)["after_verse"]["below_zero"] > 0.7


def _novice_margin():
    """入門's least time after the upper verse has ended: its quickest reaction."""
    params = cpu.LEVELS["nyumon"]
    assert params.learnt_rate == params.own_learnt_rate == 0 and params.patient
    return params.reaction_min_ms


def test_novice_touches_come_after_the_upper_verse_has_ended_in_every_position():
    # Through the policy itself, on fresh positions and in every form: slips included.
    minimum = _novice_margin()
    touches = 0
    for seed in range(60):
        view = engine.view(engine.new_state(simulate.LADDER_SETTINGS, [{}, {}], seed), 1)
        end = view["reading"]["kami"]["end"]
        for j in range(20):
            view["form"] = random.Random(j).gauss(0, 2)
            action = cpu.cpu_policy(view, 1, "nyumon", random.Random(seed * 100 + j))
            if action["type"] == "touch":
                touches += 1
                assert action["t"] >= end + minimum
    assert touches > 300


def test_form_varies_from_game_to_game_and_slows_or_quickens_the_same_level():
    cpus = [{"is_cpu": True}, {"is_cpu": True}]
    forms = {engine.view(engine.new_state(simulate.LADDER_SETTINGS, cpus, s), 1)["form"]
             for s in range(200)}  # fmt: skip
    assert len(forms) == 200 and 0.8 < statistics.pstdev(forms) < 1.2  # a standard normal
    s = _position_for(18, [18], [1])
    view = engine.view(s, 1)

    def mean_time(form):
        times = [
            cpu.cpu_policy({**view, "form": form}, 1, "tsuyoi", random.Random(i))["t"]
            for i in range(300)
        ]
        return statistics.fmean(times)

    assert mean_time(-1.0) + 100 < mean_time(0.0) < mean_time(1.0) - 100


def test_a_seat_sees_only_its_own_form():
    state = engine.new_state(simulate.LADDER_SETTINGS, [{"is_cpu": True}, {}], 5)
    assert isinstance(engine.view(state, 0)["form"], float)
    assert "form" not in engine.view(state, 1)  # a person's view: no CPU's form
    assert "form" not in engine.view(state, None)


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
    rng = random.Random(0)
    assert cpu.movement_ms(near, 1, 18, params, rng) < cpu.movement_ms(far, 1, 18, params, rng)


def _row_position(poem, row):
    """Poem on seat 1's side in `row` (0 upper … 2 lower), a filler card in the others."""
    queue = [poem, *(n for n in range(1, 101) if n != poem)]
    rows = [[2], [3], [4]]
    rows[row] = [poem]
    return engine.situation([[[5], [], []], rows], queue)


def test_own_lower_row_is_quickest_and_the_far_lower_row_slowest():
    # Seed 003: the lower row, nearest its owner (where one-kana cards go), is the quickest.
    params = dataclasses.replace(cpu.LEVELS["meijin"], far_ms=0)
    rng = random.Random(0)
    own, far = [], []
    for row in range(3):
        position = _row_position(18, row)
        own.append(cpu.movement_ms(engine.view(position, 1), 1, 18, params, rng))
        far.append(cpu.movement_ms(engine.view(position, 0), 0, 18, params, rng))
    assert own[2] < own[1] < own[0]  # lower, middle, upper on its own side
    assert far[0] < far[1] < far[2]  # the far upper row is nearest the centre line
    assert own[0] < far[0]


def test_a_static_listener_waits_for_the_static_kimariji_a_strong_one_for_the_dynamic():
    # After あさぼらけあ (31) is read, あさぼらけう (64) is decided at あさぼ, not at its 6th kana.
    rest = [n for n in range(1, 101) if n not in (31, 64, 2)]
    s = engine.situation([[[64], [], []], [[2], [], []]], [64, 2, *rest], read=[31])
    view = engine.view(s, 1)
    kana_t = view["reading"]["kami"]["t"]
    assert view["reading"]["kimariji"] == 3 and view["reading"]["static_kimariji"] == 6
    # It knows the poem, tracks only the static kimariji, and neither lags, guesses nor slips.
    static = dataclasses.replace(
        cpu.LEVELS["futsu"], dynamic_rate=0, guess_rate=0, lag_kana=0, slip_rate=0
    )
    meijin = dataclasses.replace(cpu.LEVELS["meijin"], guess_rate=0)
    weak = [cpu.plan_touch(view, 1, static, random.Random(i)) for i in range(50)]
    strong = [cpu.plan_touch(view, 1, meijin, random.Random(i)) for i in range(50)]
    assert all(a["card"] == 64 for a in weak + strong)
    assert min(a["t"] for a in weak) > kana_t[5]
    assert sum(a["t"] < kana_t[5] for a in strong) >= 45


def test_the_weak_cpu_takes_its_own_cards_at_the_kimariji_and_the_far_ones_late():
    # よわい has studied its own side best: すみのえの (18, one kana) is taken before the verse
    # ends as often as it knows the poem — more often on its side than on the far side.
    params = dataclasses.replace(cpu.LEVELS["yowai"], guess_rate=0, slip_rate=0)
    early = {}
    for where in ("own", "far"):
        position = _position_for(18, [2], [18]) if where == "own" else _position_for(18, [18], [2])
        view = engine.view(position, 1)
        last = view["reading"]["kami"]["t"][-1]
        touches = [cpu.plan_touch(view, 1, params, random.Random(i))["t"] for i in range(400)]
        early[where] = sum(t < last for t in touches) / len(touches)
    assert abs(early["own"] - params.own_learnt_rate) < 0.08
    assert abs(early["far"] - params.learnt_rate) < 0.08
    assert params.own_learnt_rate > params.learnt_rate


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


def test_guesses_come_from_what_has_been_heard_not_from_the_poem():
    # あきの (1) is decided at its 3rd kana, あさぼらけう (64) only at its 6th. Both begin with
    # あ: a player who jumps after one kana cannot tell them apart, so its guess (card and
    # moment) must be the same whichever of the two is being read.
    rest = [n for n in range(1, 101) if n not in (1, 64, 31, 79)]
    field = [[[31, 79], [], []], [[1, 64], [], []]]  # 31 あさぼらけあ, 79 あきかぜに
    views = {}
    for poem in (1, 64):
        queue = [poem, *(n for n in (1, 64, 31, 79) if n != poem), *rest]
        views[poem] = engine.view(engine.situation(field, queue), 1)
    params = dataclasses.replace(cpu.LEVELS["futsu"], guess_rate=1.0, guess_kana=(1, 1))
    cards = set()
    for i in range(300):
        a = cpu.plan_touch(views[1], 1, params, random.Random(i))
        b = cpu.plan_touch(views[64], 1, params, random.Random(i))
        assert a == b
        cards.add(a["card"])
    assert cards == {1, 64, 31, 79}  # any card that begins with あ


def test_guess_moments_do_not_follow_the_kimariji():
    # Old CPUs guessed exactly one kana before the kimariji; a listener cannot know that moment.
    queue = [64, *(n for n in range(1, 101) if n != 64)]
    view = engine.view(engine.situation([[[31, 1], [], []], [[64], [], []]], queue), 1)
    kana_t = view["reading"]["kami"]["t"]
    # Instant hands, so that a touch's time shows the kana heard when it jumped.
    params = dataclasses.replace(
        cpu.LEVELS["futsu"], guess_rate=1.0, move_scale=0, far_ms=0, reaction_min_ms=1
    )
    heard = set()
    for i in range(300):
        action = cpu.plan_touch(view, 1, params, random.Random(i))
        heard.add(sum(t <= action["t"] for t in kana_t))
    assert heard == set(range(1, params.guess_kana[1] + 1))  # 1–3 kana, never the 5th
