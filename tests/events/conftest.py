import pytest


@pytest.fixture(autouse=True)
def fresh_seat_cache():
    from django.core.cache import caches

    caches["events"].clear()
    yield
