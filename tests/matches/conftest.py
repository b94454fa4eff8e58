import pytest
from channels.db import database_sync_to_async
from django.db import connections


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def close_db_threads(anyio_backend):
    """Stop this loop's CPU timers, then close the connection the consumers' database
    thread keeps open (after any call still running there), so the test DB can go."""
    yield
    from matches.driver import driver

    driver.cancel_all()
    await database_sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel layer per test: each async test has its own event loop, and the Redis
    layer's locks and connections belong to the loop that made them."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
