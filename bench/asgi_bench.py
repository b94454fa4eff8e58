"""The site's ASGI app plus the baseline consumers (echo, floor, record, and lean in
bench/lean_move.py), so the benchmark measures them all in one process.

Used only by bench/bench_matches.py (daphne bench.asgi_bench:application).
"""

import functools
import json
import os
import uuid

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from config.asgi import django_asgi_app  # builds Django first

if os.environ.get("BENCH_CHANNEL_LAYER"):
    # A/B of channel layers on the same settings (e.g. channels_redis.core.RedisChannelLayer),
    # before the first consumer asks for the layer.
    from django.conf import settings

    settings.CHANNEL_LAYERS["default"]["BACKEND"] = os.environ["BENCH_CHANNEL_LAYER"]
from bench.lean_move import DirectDispatch, LeanConsumer
from config.routing import websocket_urlpatterns
from matches.dbcall import db_call

if os.environ.get("BENCH_PROFILE"):
    # The sockets' database thread (matches.dbcall) is profiled apart: cProfile is per thread.
    from matches import dbcall

    _call = dbcall.call_keeping_connection

    def _profiled(function, *args, **kwargs):
        _db_profile.enable()
        try:
            return _call(function, *args, **kwargs)
        finally:
            _db_profile.disable()

    dbcall.call_keeping_connection = _profiled

if os.environ.get("BENCH_SWITCH_INTERVAL"):
    import sys

    sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))

if os.environ.get("BENCH_GC_THRESHOLD"):  # e.g. 50000,20,10: an A/B of the collector's thresholds
    import gc

    gc.set_threshold(*(int(n) for n in os.environ["BENCH_GC_THRESHOLD"].split(",")))

PROBE = bool(os.environ.get("BENCH_PROBE"))
if PROBE:
    from bench import probe

    probe.install()
    from matches import services

    services.renew_leases = probe.timed_job("renew", services.renew_leases)
    services.sweep = probe.timed_job("sweep", services.sweep)

if os.environ.get("BENCH_STAGES"):  # the owner path's steps timed (bench/probe.py)
    from bench import probe as _stage_probe

    _stage_probe.owner_stages()

if os.environ.get("BENCH_PROFILE"):
    # cProfile of the event-loop thread, written at exit beside the server's log
    # (var/bench/<setup>/profile-<pid>.prof): where a move's time goes, by function.
    import atexit
    import cProfile

    _profile, _db_profile = cProfile.Profile(), cProfile.Profile()
    _profile.enable()

    def _dump() -> None:
        for name, profile in (("loop", _profile), ("db", _db_profile)):
            path = os.path.join(os.environ["VAR_DIR"], f"profile-{os.getpid()}-{name}.prof")
            profile.dump_stats(path)

    atexit.register(_dump)


class EchoConsumer(AsyncWebsocketConsumer):
    """The baseline: accept, send every text frame straight back."""

    async def connect(self):
        if PROBE:
            probe.watch()
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)


@functools.cache
def frame_of(size: int) -> str:
    """A JSON text frame of `size` bytes (at least 26): as big as a real state frame."""
    return json.dumps({"type": "state", "pad": "x" * max(0, size - 26)})


@functools.cache
def acked_frame_of(size: int) -> str:
    """A state frame of `size` bytes carrying its act's ack (hello.ack_in_state)."""
    return '{"type":"state","ack":1,"pad":"' + "x" * max(0, size - 33) + '"}'


class FanoutConsumer(AsyncWebsocketConsumer):
    """The floor under a move: a move's frames without the game, the database or views.

    A socket of group G sends one frame. The group is told through the channel layer;
    every member (the sender too) sends a frame of a state frame's size, and the sender
    an ack: 1 frame in, 5 out and 4 group deliveries, as a move in a 4-seat match.
    What a move costs beyond this is the match server's own work. (The sender's ack
    leaves before its own frame, so if anything the floor's round trip is shorter.)
    """

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        self.group = f"fanout-{kwargs['group']}"
        self.frame = frame_of(kwargs["size"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "fan.out"})
        await self.send(text_data='{"type":"ack"}')

    async def fan_out(self, message):
        await self.send(text_data=self.frame)


def _record(group: str, body: str) -> None:
    """One act written durably, as the least a move writes: one autocommitted INSERT."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO bench_record (id, grp, body) VALUES (%s, %s, %s)",
            [uuid.uuid4().hex, group, body],
        )


class RecordConsumer(DirectDispatch, FanoutConsumer):
    """The floor plus what no move can skip, with none of a game: the act is parsed and
    written (one INSERT, committed, on the sockets' database thread, as a move's write),
    then the group is told; the actor's frame carries its ack (one send fewer, as a move
    with hello.ack_in_state). No per-message close_old_connections hop either (the match
    consumer skips it too). A move costs at least this: the ratio of this to the floor
    bounds from below what any move of this design can reach (docs/matches.md)."""

    async def connect(self):
        kwargs = self.scope["url_route"]["kwargs"]
        self.group_number = kwargs["group"]
        self.acked = acked_frame_of(kwargs["size"])
        await super().connect()

    async def receive(self, text_data=None, bytes_data=None):
        act = json.loads(text_data)
        await db_call(_record)(self.group_number, json.dumps(act))
        await self.channel_layer.group_send(
            self.group, {"type": "fan.out", "by": self.channel_name}
        )

    async def fan_out(self, message):
        mine = message.get("by") == self.channel_name
        await self.send(text_data=self.acked if mine else self.frame)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            URLRouter(
                [
                    path("bench/echo/", EchoConsumer.as_asgi()),
                    path("bench/fanout/<int:group>/<int:size>/", FanoutConsumer.as_asgi()),
                    path("bench/record/<int:group>/<int:size>/", RecordConsumer.as_asgi()),
                    path("bench/lean/<int:group>/<int:players>/", LeanConsumer.as_asgi()),
                    *websocket_urlpatterns,
                ]
            )
        ),
    }
)
