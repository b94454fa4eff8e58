from django.urls import path

from matches.consumers import MatchConsumer

websocket_urlpatterns = [
    path("play/<uuid:match_id>/ws/", MatchConsumer.as_asgi()),
]
