"""tests/support/clocksync.py against a simulated link with a known offset (the same
cases as tests/js/clock-sync.test.mjs: the two must agree)."""

from __future__ import annotations

import random

from tests.support.clocksync import ClockSync, estimate

OFFSET = 123456.7


def simulate(seed, pings, up=20.0, down=20.0, jitter_up=40.0, jitter_down=40.0):
    rng = random.Random(seed)
    clock = [1.7e12]
    sync = ClockSync(now=lambda: clock[0])
    for _ in range(pings):
        t1 = clock[0]
        out = up + rng.uniform(0, jitter_up)
        back = down + rng.uniform(0, jitter_down)
        server_now = round(t1 + out + OFFSET)  # the server stamps whole ms
        clock[0] = t1 + out + back
        sync.add(t1, server_now)
        clock[0] += rng.uniform(1, 6)
    return sync.offset - OFFSET, sync


def share_within(runs, ms):
    return sum(abs(error) <= ms for error, _ in runs) / len(runs)


def test_exact_without_jitter():
    error, sync = simulate(1, 1, jitter_up=0, jitter_down=0)
    assert abs(error) <= 0.5
    assert (sync.delay, sync.bound) == (40, 20)


def test_symmetric_jitter_converges_within_10ms():
    runs = [simulate(seed, 32) for seed in range(500)]
    assert share_within(runs, 10) == 1
    assert share_within([simulate(seed, 8) for seed in range(500)], 10) >= 0.95
    for error, sync in runs:
        assert abs(error) <= sync.bound + 0.5


def test_one_leg_jitter_fastest_samples_agree_plain_mean_does_not():
    runs = [simulate(seed, 32, jitter_up=40, jitter_down=0) for seed in range(500)]
    assert share_within(runs, 10) == 1
    plain = [
        estimate(sync.samples, len(sync.samples)).offset - (sync.offset - error)
        for error, sync in runs
    ]
    assert abs(sum(plain) / len(plain) - 10) < 2  # half the uplink's mean jitter


def test_constant_asymmetry_shifts_by_half_the_difference_inside_the_bound():
    error, sync = simulate(7, 32, up=20, down=200, jitter_up=0, jitter_down=0)
    assert abs(error - -90) <= 0.5
    assert abs(error) <= sync.bound == 110


def test_window_follows_a_changed_offset():
    clock = [0.0]
    sync = ClockSync(now=lambda: clock[0], window=4, best=1)
    for offset in [500] * 4 + [900] * 4:
        t1 = clock[0]
        clock[0] += 30
        sync.add(t1, t1 + 15 + offset)
    assert len(sync.samples) == 4
    assert sync.offset == 900
    assert sync.server_now(1000) == 1900


def test_unusable_pongs_and_ping_fields():
    clock = [1000.0]
    sync = ClockSync(now=lambda: clock[0])
    assert sync.ping_fields() == {}
    assert sync.add(1010, 5000, 1000) is None
    assert sync.add(0, 5000, 20000) is None
    assert not sync.ready
    sync.add(960, 5000)
    assert sync.ready
    clock[0] = 1250
    assert sync.ping_fields() == {"echo": 5000, "held": 250}
    assert sync.ping_fields(1000 + 61000) == {}
