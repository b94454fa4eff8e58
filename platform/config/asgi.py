"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # platform/
sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))  # repository root
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application

# Build Django's app (and so the app registry) before importing any consumer.
django_asgi_app = get_asgi_application()

from config.startup import require_secret_key  # noqa: E402

require_secret_key()  # refuse to serve with no key rather than sign with a made-up one

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns)),
    }
)
