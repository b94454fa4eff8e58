"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # platform/
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))  # repository root
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application


def _leave_form_bodies_to_django() -> None:
    """Twisted parses every multipart POST body itself before daphne hands the raw body
    to Django, and answers a malformed one with an empty 400 that never reaches the
    site (the JSON API could not say "415, send JSON"). Daphne never reads that parse:
    switch it off (Twisted's documented parsePOSTFormSubmission flag, set per request)."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:  # another ASGI server: nothing to do
        return
    if getattr(WebRequest, "_forms_left_to_django", False):
        return
    original_init = WebRequest.__init__

    def __init__(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self._parsePOSTFormSubmission = False

    WebRequest.__init__ = __init__
    WebRequest._forms_left_to_django = True


_leave_form_bodies_to_django()

# Build Django's app (and so the app registry) before importing any consumer.
django_asgi_app = get_asgi_application()

from config.shutdown import exit_after_daphne  # noqa: E402
from config.startup import require_secret_key  # noqa: E402

require_secret_key()  # refuse to serve with no key rather than sign with a made-up one
exit_after_daphne()  # a SIGTERM must not wait on a request thread stranded by it

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)

# What exists now (Django, the apps, the poems) lives as long as the process: keep it out of
# the garbage collector's full passes. Each pass walked it all, 70-100 ms in the test
# server; during one no frame is read, and a karuta touch waiting in the socket is stamped
# that much later than it came (a late refusal for an honest player). Frozen: ~20 ms.
import gc  # noqa: E402

gc.collect()  # startup's own garbage first: a frozen object is never collected
gc.freeze()
# And what the sockets and matches keep alive (about 200,000 objects at 200 matches: each
# socket's coroutines, tasks, queues; the snapshots) out of them too. With the default first
# threshold (700), anything alive for a few milliseconds (a move waiting on its group commit,
# a match's snapshot until the next move) was promoted to the old generation, 25% of the live
# set in 10-20 s, and each of those full collections stopped the process 80-240 ms (CPU;
# docs/matches.md, "The paced tail"). The middle generation is now collected once per 1,000
# young collections, not 10: what a move keeps for a while has died by then, so little
# reaches the old generation and no bench run has a full collection. The young collections
# stay small (700): a first threshold of 50,000 did the same for the full ones, but each
# young pass then held a karuta touch long enough to be judged late (tests/fairness).
gc.set_threshold(700, 1000, 10)
