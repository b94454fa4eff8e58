"""The site's ASGI app plus a bare echo consumer, so the benchmark measures both in one process.

Used only by bench/bench_matches.py (daphne bench.asgi_bench:application).
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from config.asgi import django_asgi_app  # builds Django first
from config.routing import websocket_urlpatterns


class EchoConsumer(AsyncWebsocketConsumer):
    """The baseline: accept, send every text frame straight back."""

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            URLRouter([path("bench/echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns])
        ),
    }
)
