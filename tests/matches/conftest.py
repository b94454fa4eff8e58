import pytest
from channels.db import database_sync_to_async
from django.db import connections


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def close_db_threads(anyio_backend):
    """Close the connection the consumers' database thread opened, so the test DB can go."""
    yield
    await database_sync_to_async(connections.close_all)()
