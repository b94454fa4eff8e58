import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def close_db_threads(anyio_backend):
    """Stop this loop's CPU timers, then close the connections the consumers' database
    threads keep open (after any call still running there), so the test DB can go."""
    yield
    from matches.dbcall import close_connections
    from matches.driver import driver

    driver.cancel_all()
    await close_connections()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A new channel layer per test: each async test has its own event loop, and the Redis
    layer's locks and connections belong to the loop that made them."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
