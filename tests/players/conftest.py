import pytest


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Each test starts with empty in-memory counters (they live as long as the process)."""
    from players import ratelimit

    ratelimit.reset()
    yield
    ratelimit.reset()
