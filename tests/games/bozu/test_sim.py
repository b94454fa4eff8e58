"""The NumPy simulator against the pure engine, its sampler, and the stored figures table."""

from __future__ import annotations

import numpy as np
import pytest

from games.bozu import engine, figures, sim
from games.bozu.rules import Rules, SemimaruRule, all_rules


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: str(r.to_settings()))
def test_simulator_and_engine_agree_game_by_game(rules):
    """Same piles, same rules: every game ends with the same hands and field, and the
    biggest single move is the same."""
    rng = np.random.default_rng(all_rules().index(rules))
    orders = np.array([rng.permutation(100) + 1 for _ in range(150)])
    outcome = sim.final_counts(rules, orders)
    for game, order in enumerate(orders):
        state = engine.new_game(rules, order.tolist())
        biggest = 0
        while state.to_act is not None:
            state, events = engine.draw(state, state.to_act)
            for event in events:
                if event["type"] in ("to_field", "took_field", "others_to_field"):
                    biggest = max(biggest, event["cards"])
        assert outcome.hands[game].tolist() == [len(hand) for hand in state.hands], game
        assert outcome.field[game] == len(state.field), game
        assert outcome.biggest_move[game] == biggest, game


def test_simulator_rates_match_the_engine_on_the_same_shuffles():
    """The reported figures computed from both, on 2,000 identical default games."""
    rules = Rules()
    orders = np.array([engine.shuffled_deck(seed) for seed in range(2_000)])
    outcome = sim.final_counts(rules, orders)
    from_sim = sim.summarise(rules, outcome, seed=0, seconds=0)
    finals = [engine.play_out(engine.new_game(rules, order.tolist())) for order in orders]
    engine_outcome = outcome._replace(
        hands=np.array([[len(hand) for hand in final.hands] for final in finals]),
        field=np.array([len(final.field) for final in finals]),
    )
    from_engine = sim.summarise(rules, engine_outcome, seed=0, seconds=0)
    assert from_sim == from_engine
    assert from_sim.games == 2_000 and 60 < from_sim.winner_mean_cards < 70


def test_random_piles_hold_each_class_once_per_card():
    rules = Rules(semimaru="skip_turn", emperor="draw_again")
    rows = sim.step_codes(rules, sim.random_steps(rules, 5_000, np.random.default_rng(3)))
    assert rows.shape == (100, 5_000)
    expected = np.bincount(sim.effect_table(rules)[sim.DECK_CLASSES], minlength=6)
    for game in range(rows.shape[1]):
        assert (np.bincount(rows[:, game], minlength=6) == expected).all()


def test_random_piles_are_uniformly_shuffled():
    """Each position holds a monk with chance 12/100, and two monks in a row 12*11/(100*99)."""
    games = 200_000
    rows = sim.step_codes(Rules(), sim.random_steps(Rules(), games, np.random.default_rng(4)))
    monk = rows == sim.MONK  # Semimaru counts as a monk by default: 13 cards
    p = 13 / 100
    spread = 5 * np.sqrt(p * (1 - p) / games)
    assert np.abs(monk.mean(axis=1) - p).max() < spread
    pair = 13 * 12 / (100 * 99)
    both = (monk[:-1] & monk[1:]).mean(axis=1)
    assert np.abs(both - pair).max() < 5 * np.sqrt(pair * (1 - pair) / games)


def test_simulate_is_deterministic_and_its_rates_add_up():
    first = sim.simulate(Rules(players=3), 20_000, seed=5)
    second = sim.simulate(Rules(players=3), 20_000, seed=5)
    assert first.sole_first == second.sole_first and first.games == 20_000
    assert sum(first.sole_first) + first.draw_rate == pytest.approx(1)
    assert sum(first.first_share) == pytest.approx(1)
    assert all(s <= t for s, t in zip(first.sole_first, first.shared_first, strict=True))
    assert 0 < first.draw_rate < 0.05
    assert 50 < first.winner_mean_cards < 80


def test_chunked_runs_agree_with_an_unchunked_run(monkeypatch):
    # Chunks draw their own random numbers, so the games differ; the figures must agree
    # within sampling error, and every game of every chunk must be counted.
    rules = Rules(players=3, semimaru=SemimaruRule.OTHERS_TO_FIELD)
    whole = sim.simulate(rules, 30_000, seed=1)
    monkeypatch.setattr(sim, "CHUNK", 7_000)
    chunked = sim.simulate(rules, 30_000, seed=1)
    assert chunked.games == whole.games == 30_000
    assert chunked.sole_first != whole.sole_first  # really another draw, not a cached one
    for a, b in zip(
        [*chunked.sole_first, chunked.draw_rate], [*whole.sole_first, whole.draw_rate], strict=True
    ):
        sd = (a * (1 - a) / 30_000 * 2) ** 0.5
        assert abs(a - b) < 4 * sd
    assert abs(chunked.winner_mean_cards - whole.winner_mean_cards) < 0.5


def _seat_spread(figures_):
    return max(figures_.sole_first) - min(figures_.sole_first)


def test_random_first_player_evens_out_the_seats():
    # Semimaru "others' cards to the field", 4 players: red first favours the last seat by
    # about a point. Picking the first player at random must even the seats out.
    rules = Rules(players=4, semimaru=SemimaruRule.OTHERS_TO_FIELD)
    games = 200_000
    red_first = sim.simulate(rules, games, seed=2)
    shuffled = sim.simulate(rules, games, seed=2, random_first=True)
    sd = (0.25 * 0.75 / games) ** 0.5  # one seat's share
    assert _seat_spread(red_first) > 8 * sd
    assert _seat_spread(shuffled) < 4.5 * sd
    assert sum(shuffled.sole_first) == pytest.approx(sum(red_first.sole_first), abs=6 * sd)


def test_figures_table_covers_the_48_combinations():
    table = figures.load_table()
    assert len(table["rows"]) == 48
    settings = [row["settings"] for row in table["rows"]]
    assert sorted(map(str, settings)) == sorted(str(r.to_settings()) for r in all_rules())
    for row in table["rows"]:
        assert row["games"] == table["games"]
        assert len(row["sole_first"]) == row["settings"]["players"]
        assert sum(row["sole_first"]) + row["draw_rate"] == pytest.approx(1, abs=1e-4)


def test_figures_for_reads_the_row_for_the_settings():
    row = figures.figures_for({"players": 2, "semimaru": "skip_turn"})
    assert row["settings"] == {
        "players": 2,
        "semimaru": "skip_turn",
        "emperor": "noble",
        "princess_extra_draw": False,
    }
    assert figures.figures_for(None)["settings"] == Rules().to_settings()


def test_the_stored_table_is_what_the_command_writes():
    """Regenerate the default row from its stored seed: the file is generated, not typed."""
    table = figures.load_table()
    index = [row["settings"] for row in table["rows"]].index(Rules().to_settings())
    row = table["rows"][index]
    assert row["seed"] == table["seed"] + index
    assert figures.row_for(Rules(), table["games"], row["seed"]) == row
