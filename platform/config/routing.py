"""WebSocket routes (the matches app adds its consumer here)."""

websocket_urlpatterns: list = []
