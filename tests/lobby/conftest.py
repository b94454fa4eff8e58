import pytest
from channels.db import database_sync_to_async
from django.db import connections


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def close_lobby_threads(anyio_backend):
    """Stop this loop's lobby ticker, then close the database thread's connection."""
    yield
    from lobby import ticker
    from matches.driver import driver

    ticker.stop()
    driver.cancel_all()
    await database_sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_limits():
    """The per-address seek counter and the lobby cache are the process's: start each
    test with none."""
    from django.core.cache import caches

    from lobby import views

    views._ADDRESSES.clear()
    caches["lobby"].clear()
