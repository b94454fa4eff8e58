"""WebSocket routes."""

from lobby.routing import websocket_urlpatterns as lobby_routes
from matches.routing import websocket_urlpatterns as match_routes

websocket_urlpatterns: list = [*match_routes, *lobby_routes]
