"""The match layer's front door: everything that changes a match, re-exported from the
modules that do each job (docs/matches.md draws the map). Views, the consumer, the driver
and tests call `services.X`; nothing inside the match layer imports this module.

    tokens      seat tokens                    clock     turn, presence and due-time arithmetic
    log         lock, seats, append, replay    snapshots the per-process snapshot cache
    frames      building frames                broadcast notices and after-commit hooks
    presence    sockets, leases                moves     submit, decide, advance, sweep
    rooms       create/join/start/invite/resign/leave/rematch
"""

from __future__ import annotations

from matches.autoplay import advance, cpu_move, due_matches, sweep
from matches.broadcast import (
    collecting_notices,
    notice,
    notify,
    send_notices,
)
from matches.clock import (
    absent_since,
    conf,
    cpu_delay,
    default_level,
    disconnect_grace_ms,
    heartbeat_interval,
    presence_stale,
    turn_since,
)
from matches.log import get_game, replay
from matches.models import group_name
from matches.moves import MOVE_FIELDS, Applied, submit_action
from matches.presence import expire_leases, heartbeat, presence, renew_leases
from matches.rooms import (
    create_match,
    join,
    leave,
    new_invite,
    new_seed,
    rematch,
    resign,
    start_with_cpu,
)
from matches.tokens import hash_token, new_token, seats_for_token, still_held, token_seats

__all__ = [
    "MOVE_FIELDS",
    "Applied",
    "absent_since",
    "advance",
    "collecting_notices",
    "conf",
    "cpu_delay",
    "cpu_move",
    "create_match",
    "default_level",
    "disconnect_grace_ms",
    "due_matches",
    "expire_leases",
    "get_game",
    "group_name",
    "hash_token",
    "heartbeat",
    "heartbeat_interval",
    "join",
    "leave",
    "new_invite",
    "new_seed",
    "new_token",
    "notice",
    "notify",
    "presence",
    "presence_stale",
    "rematch",
    "renew_leases",
    "replay",
    "resign",
    "seats_for_token",
    "send_notices",
    "start_with_cpu",
    "still_held",
    "submit_action",
    "sweep",
    "token_seats",
    "turn_since",
]
