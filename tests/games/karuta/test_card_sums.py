"""docs/requirements.md §3's summary as an oracle over generated readings: whoever takes the read
card gets one card lighter; whoever commits otetsuki gets one heavier (and the opponent, who
sends it, one lighter); tomo-otetsu cancels the penalties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.karuta import engine

A_SIDE = [[1, 2], [3], [4]]
B_SIDE = [[5], [6, 7], [8]]
DEAD = 50
REST = [n for n in range(9, 101) if n != DEAD]


@st.composite
def readings(draw):
    read = draw(st.sampled_from([1, 3, 5, 8, DEAD]))
    field = [c for rows in A_SIDE + B_SIDE for c in rows]
    plan = []
    for _seat in (0, 1):
        wrong = draw(st.lists(st.sampled_from([c for c in field if c != read]), unique=True,
                              max_size=3))  # fmt: skip
        times = sorted(draw(st.lists(st.integers(0, 400), min_size=len(wrong),
                                     max_size=len(wrong))))  # fmt: skip
        take = draw(st.one_of(st.none(), st.integers(401, 700))) if read != DEAD else None
        plan.append((list(zip(wrong, times, strict=True)), take))
    return read, plan


def owner_of(card):
    if any(card in row for row in A_SIDE):
        return 0
    if any(card in row for row in B_SIDE):
        return 1
    return None


@settings(max_examples=300, deadline=None)
@given(readings())
def test_card_counts_follow_the_lighter_heavier_rule(case):
    read, plan = case
    queue = [read, *[c for rows in A_SIDE + B_SIDE for c in rows if c != read]]
    queue += [DEAD] if read != DEAD else []
    state = engine.situation([A_SIDE, B_SIDE], queue + REST)
    before = [len(engine.side_cards(state, s)) for s in (0, 1)]
    for seat, (wrong, take) in enumerate(plan):
        for card, t in wrong:
            state, _ = engine.apply(state, seat, {"type": "touch", "card": card, "t": t})
        if take is not None:
            state, _ = engine.apply(state, seat, {"type": "touch", "card": read, "t": take})
        else:
            state, _ = engine.apply(state, seat, {"type": "pass"})
    while state["phase"] == "send":
        sender = state["send"]["from"]
        card = engine.side_cards(state, sender)[0]
        state, _ = engine.apply(state, sender, {"type": "send", "card": card})
    after = [len(engine.side_cards(state, s)) for s in (0, 1)]

    owner = owner_of(read)
    takes = [t for _, t in plan]
    timed = [(t, 0 if s == owner else 1, s) for s, t in enumerate(takes) if t is not None]
    taker = min(timed)[2] if timed else None
    otetsuki = []
    for wrong, _ in plan:
        sides = {owner_of(c) for c, _ in wrong}
        otetsuki.append(len(sides) if owner is None else int(any(s != owner for s in sides)))
    tomo = all(otetsuki)
    expected = before[:]
    if taker is not None:
        expected[taker] -= 1
    elif owner is not None:
        expected[owner] -= 1  # nobody touched it: its owner takes it off
    if not tomo:
        for seat in (0, 1):
            expected[seat] += otetsuki[seat]
            expected[1 - seat] -= otetsuki[seat]
    assert after == expected
