import pytest

from telemetry.throttling import COUNTER


@pytest.fixture
def fresh_rate_limit():
    """The intake's in-memory rate limit, empty before and after the test."""
    COUNTER.clear()
    yield
    COUNTER.clear()
