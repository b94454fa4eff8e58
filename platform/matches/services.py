"""The match layer's front door: everything that changes a match or reads one from the
database, re-exported from the modules that do each job (docs/matches.md draws the map).
Every caller goes through it: views, records, the Celery tasks, the socket side (consumers,
outage, driver), benches and tests. Only a socket's frames out (outgoing.py) build frames
from the per-process snapshot cache themselves (`frames`, `snapshots`): that is the socket's
own job, and it changes nothing. Nothing in the core (the modules listed below) imports
this module.

    tokens      seat tokens                    clock     turn, presence and due-time arithmetic
    log         lock, seats, append, replay    snapshots the per-process snapshot cache
    frames      building frames                broadcast notices and after-commit hooks
    presence    sockets, leases                moves     a person's move: submit, decide
    autoplay    the server's moves: advance, sweep
    rooms       create/join/start/invite/resign/leave/rematch
    models      Match.objects' reads: known, find, by_invite, seq_of, standing
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
from matches.models import Match, group_name
from matches.moves import MOVE_FIELDS, Applied, submit_action
from matches.presence import expire_leases, heartbeat, presence, renew_leases
from matches.rooms import (
    SeatSpec,
    create_match,
    create_match_for,
    join,
    leave,
    new_invite,
    new_seed,
    rematch,
    resign,
    start_with_cpu,
)
from matches.tokens import hash_token, new_token, seats_for_token, still_held, token_seats

# The reads outside the move path, on the match manager (matches/models.py).
known = Match.objects.known
find = Match.objects.find
by_invite = Match.objects.by_invite
seq_of = Match.objects.seq_of
standing = Match.objects.standing

__all__ = [
    "MOVE_FIELDS",
    "Applied",
    "SeatSpec",
    "absent_since",
    "advance",
    "by_invite",
    "collecting_notices",
    "conf",
    "cpu_delay",
    "cpu_move",
    "create_match",
    "create_match_for",
    "default_level",
    "disconnect_grace_ms",
    "due_matches",
    "expire_leases",
    "find",
    "get_game",
    "group_name",
    "hash_token",
    "heartbeat",
    "heartbeat_interval",
    "join",
    "known",
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
    "seq_of",
    "standing",
    "start_with_cpu",
    "still_held",
    "submit_action",
    "sweep",
    "token_seats",
    "turn_since",
]
