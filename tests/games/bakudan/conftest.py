# The match layer's async fixtures, for the Bakudan tests that go through real sockets.
from tests.matches.conftest import (  # noqa: F401
    anyio_backend,
    close_db_threads,
    fresh_channel_layer,
)
