"""Which tests ./dev.py runs in its timing passes (README, "Tests in parallel"). Plain data:
tests/conftest.py marks the tests by it, and dev.py, which runs before the project's
environment exists, reads it as a file to name the passes' modules (collecting only those
instead of the whole tree: about 9 s less per pass)."""

# Modules that hold the server to wall-clock budgets of a few milliseconds (the karuta judge's
# late window, link delays, the voice's 10 ms schedule, recovery deadlines). They are marked
# `timing`, and ./dev.py runs them after the parallel pass on three workers: they wait on
# readings and links far more than they compute (the pass keeps the two cores 23% busy), so
# three at once still leave each test most of a core.
TIMING_MODULES = {
    "tests/fairness/test_delay_proxy.py",
    "tests/fairness/test_fairness.py",
    "tests/matches/test_karuta_online.py",
    "tests/matches/test_genpei_online.py",
    "tests/matches/test_link_delay.py",
    "tests/matches/test_recovery.py",
    "tests/browser/test_karuta_voice.py",
    # The first reading's opening clip after a skipped memorisation, within the same 10 ms.
    "tests/browser/test_karuta_voice_first.py",
    # An event started by the server's ticker at the time typed 30 s ahead, within 5 s; the
    # four sign-ins and joins must fit in that lead (about 55 s, half of it waiting).
    "tests/browser/test_events.py",
}
# Of those, the ones also marked `timing_alone`, run last in one process: deadlines of 2 s
# against 0.5 s polls, each test running two servers and a Redis of its own. (Beside another
# timing test a CPU move was once seen after 2.014-2.018 s, 2 runs of 2; the cause was a
# timer firing early, since fixed in matches/driver.py, but the margin is thin.)
# The voice test too: its game stalled (reading 2 never came within 60 s after "skip": 1 of 3
# full runs on 6 Dec, in CI at bc3b184 too). The cause was the test, not the load: when the
# CPU's otetsuki in the first reading made this player send a card (about 1 deal in 60), the
# test never chose one and the game waited for it; it sends now. It stays here until it has
# been seen to pass in the timing pass under load.
# The first-reading voice test (three games, about 27 s alone) for the same 10 ms schedule: it
# has not yet been run beside the fairness test, whose load once put reading 2's clips of the
# voice test 17-59 ms off (6 Dec, load 4-6).
TIMING_ALONE_MODULES = {
    "tests/matches/test_recovery.py",
    "tests/browser/test_karuta_voice.py",
    "tests/browser/test_karuta_voice_first.py",
}
# The longest light timing tests (about 57 s, 54 s and 27 s alone, 6 Dec): they start the timing
# pass, one on each of its three workers, so that none is left to run by itself at the end;
# the quick timing tests come next, and the other slow ones last, taken by whichever worker
# is free first. Not the events browser test (55-70 s): its four Chromium contexts beside the
# fairness test at the start of the pass made the judge see four touches late (CI run, 6 Dec).
LONGEST_TIMING_TESTS = (
    "tests/matches/test_karuta_online.py::"
    "test_friends_play_competitive_and_chirashi_to_the_end_with_identical_logs",
    "tests/fairness/test_fairness.py::test_contested_cards_split_fairly_over_unequal_links",
    "tests/matches/test_genpei_online.py::"
    "test_four_friends_play_two_against_two_and_the_cpu_takes_a_dropped_seat",
)
# Tests that only compute (the engines and their simulations, the voice build, the node tests
# of the front end's pure modules): no browser, no clock budget, no server of their own. They
# are a sixth of the parallel pass's CPU (116 of 698 CPU s, 6 Dec), so ./dev.py runs them
# beside the timing pass instead, at idle priority (SCHED_IDLE: a core only when no timing
# test wants it), on the CPU that pass leaves idle.
IDLE_PASS_PATHS = ("tests/games", "tests/frontend")
