"""Fixtures of the fairness tests (the race games use the real server on the test DB)."""

from __future__ import annotations

import pytest


@pytest.fixture
def poems_in_db(transactional_db):
    """transaction=True tests flush the tables the data migration filled: fill them again."""
    from poems.loader import sync_poems
    from poems.models import Poem, Poet

    sync_poems(Poet, Poem)
