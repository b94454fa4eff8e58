"""A vectorised Monte Carlo of competitive CPU-vs-CPU karuta (NumPy, no Django).

The engine-driven path (`simulate.play`) asks the CPU policy for one action at a
time and applies it through the engine: about 70 games a second. A ladder sweep
needs thousands, so this module decides each reading in closed form for many games
at once: step i reads the i-th poem of every game's reading order, both CPUs'
touch times, guesses and slips are drawn for all games together from the model in
`games.karuta.cpu` (same table, same formulas), and the engine's competitive rules
(docs/requirements.md §3: the earliest touch takes, the owner wins ties, otetsuki by side,
tomo-otetsu, sends capped by what the sender holds, first empty side wins) settle
them. Per game it keeps where every card lies (side and row), which poems are
unread, and the cards each side and row holds.

It draws its own random numbers, so it agrees with the engine path in distribution,
not game by game; the tests compare win rates and touch times on the same seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np

from games.karuta import cpu, reading
from games.karuta.simulate import Ladder
from poems import catalogue
from poems.kimariji import static_kimariji

N = catalogue.POEM_COUNT
PER_SIDE = 25
ROW_SIZES = (8, 8, 9)  # engine._split_rows of 25 cards
RECEIVE_KEY = np.array([2, 0, 1])  # engine.RECEIVE_ROW_ORDER (1, 2, 0) as a tie-break rank
NO_TOUCH = np.inf
TALLY_KEYS = ("reach_sum", "reach_n", "otetsuki", "readings")


@dataclass(frozen=True)
class PoemTables:
    """Everything per poem the model needs, as arrays indexed by poem number − 1."""

    shared: np.ndarray  # [100, 100] kana the two upper verses share (diagonal: its length)
    length: np.ndarray  # printed kana of the upper verse
    static: np.ndarray  # static kimariji
    times: np.ndarray  # [100, longest] when each kana is shown
    last: np.ndarray  # when the last upper-verse kana is shown
    end: np.ndarray  # when the upper verse ends (the last kana's hold over)
    close: np.ndarray  # the last moment a touch counts (competitive)
    send_score: np.ndarray  # static kimariji (the pair bonus is added per side)
    first: np.ndarray  # class of the first kana (for the pair bonus)


@cache
def tables(pace: str | float = "standard") -> PoemTables:
    numbers = range(1, N + 1)
    shared = np.array([[cpu.shared_beginning(a, b) for b in numbers] for a in numbers])
    kami = [reading.kami_times(p, pace) for p in numbers]
    longest = max(len(t) for t in kami)
    times = np.zeros((N, longest))
    for i, t in enumerate(kami):
        times[i, : len(t)] = t
    firsts = sorted({cpu._keys(p)[0] for p in numbers})
    return PoemTables(
        shared=shared.astype(np.int16),
        length=np.array([len(t) for t in kami]),
        static=np.array([static_kimariji(p) for p in numbers]),
        times=times,
        last=np.array([t[-1] for t in kami], dtype=float),
        end=np.array([reading.kami_end(p, pace) for p in numbers], dtype=float),
        close=np.array([reading.close_ms("competitive", p, pace) for p in numbers], dtype=float),
        send_score=np.array([static_kimariji(p) for p in numbers], dtype=float),
        first=np.array([firsts.index(cpu._keys(p)[0]) for p in numbers]),
    )


# MOVE[own side?, row] at move_scale 1
MOVE = np.array([[cpu.MOVE_MS[(own, r)] for r in range(3)] for own in (False, True)], dtype=float)

_FIELDS = (
    "learnt_rate", "own_learnt_rate", "lag_kana", "dynamic_rate", "reaction_ms", "reaction_sd_ms",
    "reaction_min_ms", "recall_ms",
    "guess_rate", "slip_rate", "forget_rate", "forget_ms", "move_scale", "far_ms", "form_sd",
)  # fmt: skip


def _level_arrays(levels: Sequence[str]) -> dict[str, np.ndarray]:
    params = [cpu.LEVELS[level] for level in levels]
    out = {name: np.array([getattr(p, name) for p in params], dtype=float) for name in _FIELDS}
    out["guess_lo"] = np.array([p.guess_kana[0] for p in params])
    out["guess_hi"] = np.array([p.guess_kana[1] for p in params])
    out["smart"] = np.array([p.smart_sends for p in params])
    out["patient"] = np.array([p.patient for p in params])
    return out


def _forms(rng: np.random.Generator, games: int) -> np.ndarray:
    """Each seat's form z in each game (engine.cpu_form): standard normal draws, [G, 2]."""
    return rng.normal(0.0, 1.0, (games, 2))


def _pick(rng: np.random.Generator, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One True column per row of `mask`, uniformly (and whether the row had any)."""
    noise = np.where(mask, rng.random(mask.shape), -1.0)
    return noise.argmax(axis=1), mask.any(axis=1)


def _gauss(rng, mean, sd, low):
    return np.maximum(low, rng.normal(mean, sd))


@dataclass
class Outcome:
    """Per game: the winner seat, and per seat the engine-style tally; plus touch samples."""

    winner: np.ndarray
    reach_sum: np.ndarray  # [G, 2]
    reach_n: np.ndarray
    otetsuki: np.ndarray
    readings: np.ndarray
    # Per reading and seat: (game, seat, t − deciding kana, t − end of the upper verse).
    touches: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]


class Reading(NamedTuple):
    """One reading in every game still on: the poem and what decides when it is known."""

    rng: np.random.Generator
    tab: PoemTables
    loc: np.ndarray  # [G, 100], all games
    g: np.ndarray  # the games still on
    poem: np.ndarray
    kimariji: np.ndarray  # dynamic
    static: np.ndarray
    times: np.ndarray  # [n, longest]
    last: np.ndarray
    end: np.ndarray
    close: np.ndarray
    live: np.ndarray


def _touches(now: Reading, seat: int, p: dict[str, np.ndarray], form: np.ndarray):
    """One seat's touches in every game (cpu.plan_touch): read-card time, wrong time, its side.
    `form` is each game's cpu.form_factor for this seat."""
    rng, tab, g, poem = now.rng, now.tab, now.g, now.poem
    n = len(g)
    rows = np.arange(n)
    field = now.loc[g] >= 0
    shared = tab.shared[poem]

    def move(cards):
        at = now.loc[g, cards].astype(int)
        own = (at // 3 == seat).astype(int)
        far = np.where(own == 1, 0.0, p["far_ms"] * rng.uniform(0.5, 1.5, n))
        return (MOVE[own, at % 3] * p["move_scale"] + far) * form

    def tracked():
        dynamic = rng.random(n) < p["dynamic_rate"]
        return np.where(dynamic, now.kimariji, np.maximum(now.kimariji, now.static))

    def recognised():
        own = now.loc[g, poem] // 3 == seat  # off the field: -1 // 3 == -1
        react = _gauss(rng, p["reaction_ms"] * form, p["reaction_sd_ms"], p["reaction_min_ms"])
        share = np.where(own, p["own_learnt_rate"], p["learnt_rate"]) ** form
        learnt = rng.random(n) < share
        lag = np.floor(rng.exponential(1.0, n) * p["lag_kana"] * form).astype(int)
        length = np.minimum(tracked() + lag, tab.length[poem])
        # Not learnt: the whole upper verse (a patient player: its hold too), then recalling.
        recall = p["recall_ms"] * form * rng.uniform(0.5, 1.5, n)
        heard = np.where(p["patient"], now.end, now.last)
        return react + np.where(learnt, now.times[rows, length - 1], heard + recall)

    # A guess after `heard` kana (drawn without the poem), if its kimariji is not complete.
    span = p["guess_hi"] - p["guess_lo"] + 1
    heard = p["guess_lo"] + (rng.random(n) * span).astype(int)
    length = np.minimum(tracked(), tab.length[poem])
    guessing = (rng.random(n) < p["guess_rate"]) & (heard < length)
    guess_card, has = _pick(rng, field & (shared >= heard[:, None]))
    guessing &= has
    react = p["reaction_min_ms"] * rng.uniform(0.5, 1.0, n)
    guess_t = np.clip(np.rint(now.times[rows, heard - 1] + react + move(guess_card)), 0, now.close)
    guess_right = guessing & (guess_card == poem)

    first = recognised()
    slip_card, has = _pick(rng, field & (shared >= 1) & (np.arange(N) != poem[:, None]))
    slipping = ~guessing & (rng.random(n) < p["slip_rate"]) & has
    slip_t = np.clip(np.rint(first + move(slip_card)), 0, now.close)

    wrong = (guessing & ~guess_right) | slipping
    w_t = np.where(slipping, slip_t, guess_t)
    w_card = np.where(slipping, slip_card, guess_card)
    # After a wrong touch the policy is asked again: a fresh recognition time.
    start_t = np.where(slipping, recognised(), first)
    t = start_t + move(np.where(now.live, poem, 0))
    forgot = rng.random(n) < p["forget_rate"]
    t = t + np.where(forgot, p["forget_ms"] * rng.uniform(0.5, 1.5, n), 0.0)
    t = np.where(wrong, np.maximum(t, w_t + p["reaction_min_ms"]), t)
    t = np.maximum(np.where(wrong, w_t, 0.0), np.minimum(now.close, np.rint(t)))
    t = np.where(guess_right, guess_t, t)
    poem_t = np.where(now.live, t, NO_TOUCH)
    return poem_t, np.where(wrong, w_t, NO_TOUCH), np.where(wrong, now.loc[g, w_card] // 3, -1)


def play_many(levels: np.ndarray, seed: int, pace: str = "standard") -> Outcome:
    """Competitive games between CPU levels: `levels` is [G, 2] level indices (cpu.LEVEL_ORDER)."""
    rng = np.random.default_rng(seed)
    tab = tables(pace)
    games = len(levels)
    lv = {k: v[levels] for k, v in _level_arrays(cpu.LEVEL_ORDER).items()}  # each [G, 2]
    rows_idx = np.arange(games)
    # Each seat's form for the game (engine.cpu_form: a standard normal draw), as a factor.
    form = np.exp(lv["form_sd"] * _forms(rng, games))

    # Deal and reading order (engine.new_state: 25 per side, rows 8/8/9; an independent order).
    deal = rng.random((games, N)).argsort(axis=1)
    loc = np.full((games, N), -1, dtype=np.int8)  # side * 3 + row, or -1 off the field
    start = 0
    for side in (0, 1):
        for row, size in enumerate(ROW_SIZES):
            loc[rows_idx[:, None], deal[:, start : start + size]] = side * 3 + row
            start += size
    row_count = np.tile(np.array(ROW_SIZES * 2), (games, 1))  # [G, 6]
    order = rng.random((games, N)).argsort(axis=1)
    unread = np.ones((games, N), dtype=bool)
    winner = np.full(games, -1)
    tally = {k: np.zeros((games, 2)) for k in ("reach_sum", "reach_n", "otetsuki", "readings")}
    touches = []

    for step in range(N):
        g = np.nonzero(winner < 0)[0]
        if not len(g):
            break
        n = len(g)
        poem = order[g, step]
        where = loc[g, poem].astype(int)
        live = where >= 0
        owner = np.where(live, where // 3, -1)
        unread[g, poem] = False  # rivals are the other unread poems
        shared = tab.shared[poem]  # [n, 100]
        rival = np.where(unread[g], shared, 0).max(axis=1)
        kimariji = np.minimum(rival + 1, tab.length[poem])
        static = tab.static[poem]
        times = tab.times[poem]  # [n, longest]
        decided = times[np.arange(n), kimariji - 1]
        last, end, close = tab.last[poem], tab.end[poem], tab.close[poem]

        now = Reading(rng, tab, loc, g, poem, kimariji, static, times, last, end, close, live)
        poem_t = np.full((n, 2), NO_TOUCH)
        wrong_t = np.full((n, 2), NO_TOUCH)
        wrong_side = np.full((n, 2), -1)
        for seat in (0, 1):
            p = {k: v[g, seat] for k, v in lv.items()}
            seat_touches = _touches(now, seat, p, form[g, seat])
            poem_t[:, seat], wrong_t[:, seat], wrong_side[:, seat] = seat_touches

        # Resolution (engine._resolve_competitive).
        take_t = poem_t.min(axis=1)
        taken = np.isfinite(take_t)
        tied = poem_t == take_t[:, None]
        owner_tied = tied[np.arange(n), np.maximum(owner, 0)] & live
        taker = np.where(taken, np.where(owner_tied, owner, tied.argmax(axis=1)), -1)
        counted = (wrong_t <= np.where(taken, take_t, np.inf)[:, None]) & np.isfinite(wrong_t)
        otetsuki = (counted & (~live[:, None] | (wrong_side != owner[:, None]))).astype(int)
        reached = np.isfinite(poem_t)
        for seat in (0, 1):
            hit = reached[:, seat]
            tally["reach_sum"][g[hit], seat] += poem_t[hit, seat] - decided[hit]
            tally["reach_n"][g[hit], seat] += 1
            touches.append(
                (g[hit], np.full(hit.sum(), seat), poem_t[hit, seat] - decided[hit],
                 poem_t[hit, seat] - end[hit])
            )  # fmt: skip
        tally["readings"][g] += 1
        tally["otetsuki"][g] += otetsuki

        lost = live.nonzero()[0]
        row_count[g[lost], where[lost]] -= 1
        loc[g[lost], poem[lost]] = -1
        owes = np.zeros((n, 2), dtype=int)
        away = taken & (taker != owner)
        owes[away, taker[away]] += 1
        tomo = (otetsuki > 0).all(axis=1)
        owes[~tomo, 0] += otetsuki[~tomo, 1]
        owes[~tomo, 1] += otetsuki[~tomo, 0]
        net = owes[:, 0] - owes[:, 1]
        sender = np.where(net > 0, 0, 1)
        holds = row_count[g[:, None], sender[:, None] * 3 + np.arange(3)].sum(axis=1)
        remaining = np.minimum(np.abs(net), holds)
        while (remaining > 0).any():
            s = np.nonzero(remaining > 0)[0]
            _send(rng, tab, lv, loc, row_count, g[s], sender[s])
            remaining[s] -= 1
        sides = row_count[g].reshape(n, 2, 3).sum(axis=2)
        winner[g] = np.where(sides[:, 0] == 0, 0, np.where(sides[:, 1] == 0, 1, -1))

    return Outcome(winner=winner, touches=touches, **tally)


def _send(rng, tab, lv, loc, row_count, games, sender) -> None:
    """One send for each game in `games`, from `sender` (cpu.choose_send, then the engine)."""
    own = (loc[games] >= 0) & (loc[games] // 3 == sender[:, None])
    smart = lv["smart"][games, sender]
    firsts = np.zeros((len(games), tab.first.max() + 1))
    np.add.at(firsts, (np.nonzero(own)[0], tab.first[np.nonzero(own)[1]]), 1)
    pair = firsts[:, tab.first] >= 2
    score = np.where(smart[:, None], tab.send_score + 2 * pair, 0.0) + rng.random(own.shape)
    card = np.where(own, score, -1.0).argmax(axis=1)
    from_row = loc[games, card] % 3
    receiver = 1 - sender
    counts = row_count[games[:, None], receiver[:, None] * 3 + np.arange(3)]
    target = (counts * 3 + RECEIVE_KEY).argmin(axis=1)
    row_count[games, sender * 3 + from_row] -= 1
    row_count[games, receiver * 3 + target] += 1
    loc[games, card] = receiver * 3 + target


def match_up(a: str, b: str, games: int, seed: int, ladder: Ladder | None = None) -> Ladder:
    """Like simulate.match_up (seats alternating), vectorised."""
    ladder = ladder or Ladder(levels=(a, b), games=games)
    ia, ib = cpu.LEVEL_ORDER.index(a), cpu.LEVEL_ORDER.index(b)
    seats = np.array([(ia, ib) if g % 2 == 0 else (ib, ia) for g in range(games)])
    out = play_many(seats, seed)
    _add(ladder, seats, out)
    ladder.lengths.setdefault((a, b), []).extend(out.readings[:, 0].tolist())
    return ladder


def _add(ladder: Ladder, seats: np.ndarray, out: Outcome) -> None:
    names = np.array(cpu.LEVEL_ORDER)
    for g in range(len(seats)):
        levels = (str(names[seats[g, 0]]), str(names[seats[g, 1]]))
        tallies = [{k: int(getattr(out, k)[g, s]) for k in TALLY_KEYS} for s in (0, 1)]
        ladder.add_game(levels, int(out.winner[g]), tallies)
    games, seat_of, decided_all = [], [], []
    for game, seat, decided, verse in out.touches:
        levels = names[seats[game, seat]]
        for level in np.unique(levels):
            pick = levels == level
            ladder.after_decided.setdefault(str(level), []).extend(decided[pick].tolist())
            ladder.after_verse.setdefault(str(level), []).extend(verse[pick].tolist())
        games.append(game)
        seat_of.append(seat)
        decided_all.append(decided)
    if not games:
        return
    key = np.concatenate(games) * 2 + np.concatenate(seat_of)  # one group per game and seat
    sums = np.bincount(key, weights=np.concatenate(decided_all), minlength=2 * len(seats))
    counts = np.bincount(key, minlength=2 * len(seats))
    for g in range(len(seats)):
        for s in (0, 1):
            if counts[2 * g + s]:
                level = str(names[seats[g, s]])
                ladder.game_means.setdefault(level, []).append(sums[2 * g + s] / counts[2 * g + s])


def full_ladder(games: int, seed: int, levels: Sequence[str] = cpu.LEVEL_ORDER) -> Ladder:
    """Every pair of distinct levels plays `games` games, like simulate.full_ladder."""
    ladder = Ladder(levels=tuple(levels), games=games)
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            match_up(a, b, games, seed=seed * 31 + i * 7 + levels.index(b), ladder=ladder)
    return ladder
