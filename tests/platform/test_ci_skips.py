"""CI fails a run that skipped a test, but a strict xfail ran its test (tests/conftest.py)."""

from types import SimpleNamespace

from tests.conftest import counts_as_skipped


def test_a_skip_counts():
    assert counts_as_skipped(SimpleNamespace(skipped=True, nodeid="t"))


def test_an_expected_failure_ran():
    assert not counts_as_skipped(SimpleNamespace(skipped=True, wasxfail="known gap", nodeid="t"))


def test_a_pass_does_not_count():
    assert not counts_as_skipped(SimpleNamespace(skipped=False, nodeid="t"))
