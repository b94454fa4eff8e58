from channels.auth import AuthMiddlewareStack
from django.urls import path

from lobby.consumers import LobbyConsumer

# The session (a guest's lobby key) and the signed-in user, from the handshake's cookies.
websocket_urlpatterns = [path("lobby/ws/", AuthMiddlewareStack(LobbyConsumer.as_asgi()))]
