"""Every value telemetry may carry: enumerations and buckets, never a raw free value.

static/js/telemetry.js makes the same buckets in the browser; the intake refuses
anything else (docs/requirements.md §6). Game kinds, modes, CPU levels and settings come from
the game registry, so a new game needs no change here.
"""

from __future__ import annotations

from gamekit import Mode

MODES: tuple[str, ...] = tuple(mode.value for mode in Mode)
# win/loss/draw: the player's result against others; complete: a game with no single
# player's view of it (hot-seat, solo) played to the end; resign; abandon: page left.
RESULTS = ("win", "loss", "draw", "complete", "resign", "abandon")
COMPLETED_RESULTS = ("win", "loss", "draw", "complete")
MOVES = ("0", "1-9", "10-29", "30-99", "100-299", "300+")
DURATIONS = ("lt1m", "1-3m", "3-10m", "10-30m", "30-60m", "60m+")
ROOM_ORIGINS = ("menu", "result", "invite_again")
OUTCOMES = ("success", "failure")
RECONNECTS = ("0", "1", "2-3", "4-9", "10+")
RENDER_SPEEDS = ("lt15fps", "15-29fps", "30-49fps", "50fps+")  # frames per second
TIMES_TO_3D = ("lt1s", "1-3s", "3-10s", "10-30s", "30s+")
ABANDONS = ("left", "background")  # the page was closed, or hidden, before 3D started
CONNECTIONS = ("slow-2g", "2g", "3g", "4g", "unknown")  # navigator.connection.effectiveType
CACHE_LOADS = ("all", "some", "none", "unknown")  # page code from the browser cache
LOAD_FAILURES = ("script", "stylesheet", "image", "websocket", "api", "other")

DEVICES = ("phone", "other")
MEMORY = ("le1gb", "2gb", "4gb", "8gb+", "unknown")  # navigator.deviceMemory
CORES = ("1-2", "3-4", "5-8", "9+", "unknown")  # navigator.hardwareConcurrency
BROWSERS = ("chrome", "edge", "firefox", "safari", "samsung", "opera", "other")
OSES = ("android", "ios", "windows", "macos", "chromeos", "linux", "other")

# Names refused outright, whatever their value: what must never be sent (docs/requirements.md §6).
FORBIDDEN_NAMES = frozenset(
    {
        "room", "room_id", "match", "match_id", "seat", "seat_token", "token",
        "move", "move_list", "actions", "action", "board", "position", "state", "cards",
        "url", "page_url", "href", "path", "referrer", "referer", "location",
        "gpu", "gpu_name", "renderer", "webgl_renderer", "vendor",
        "ip", "ip_address", "address", "remote_addr", "client_ip",
        "user_agent", "useragent", "ua", "email", "name", "user", "user_id",
    }
)  # fmt: skip
FORBIDDEN_PARTS = ("token", "url", "gpu", "addr", "ip_", "_ip", "agent", "room", "match", "seat")


def is_forbidden(name: str) -> bool:
    """A field name that would carry something never to be collected."""
    lowered = name.lower()
    return (
        lowered in FORBIDDEN_NAMES
        or lowered.endswith("_id")
        or any(part in lowered for part in FORBIDDEN_PARTS)
    )
