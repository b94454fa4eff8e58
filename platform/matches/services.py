"""The match layer's front door: everything that changes a match or reads one from the
database, re-exported from the modules that do each job (docs/matches.md draws the map).
Every caller goes through it: views, records, the Celery tasks, the socket side (consumers,
driver), benches and tests. Only a socket's frames out (consumers.py, `push`) build frames
from the per-process snapshot cache themselves (`frames`, `snapshots`): that is the socket's
own job, and it changes nothing. Nothing in the core (the modules listed below) imports
this module.

    tokens      seat tokens                    clock     turn, presence and due-time arithmetic
    log         lock, seats, append, replay    snapshots the per-process snapshot cache
    frames      building frames                broadcast notices and after-commit hooks
    presence    sockets, leases                moves     a person's move: submit, decide
    autoplay    the server's moves: advance, overdue, sweep
    rooms       create/join/swap/start/invite/resign/leave/rematch
    models      Match.objects' reads: known, find, by_invite, seq_of, standing
"""

from __future__ import annotations

from matches.autoplay import SWEEP_MOVES, advance, overdue, sweep
from matches.broadcast import (
    collecting_notices,
    notice,
    send_notices,
)
from matches.clock import (
    absent_since,
    conf,
    heartbeat_interval,
)
from matches.log import get_game, replay
from matches.models import Match, group_name
from matches.moves import Applied, submit_action
from matches.presence import expire_leases, presence, renew_leases
from matches.rooms import (
    SeatSpec,
    create_match,
    create_match_for,
    join,
    leave,
    new_invite,
    rematch,
    resign,
    start_with_cpu,
    swap_seats,
)
from matches.tokens import authorise, hash_token, token_seats

# The reads outside the move path, on the match manager (matches/models.py).
known = Match.objects.known
find = Match.objects.find
by_invite = Match.objects.by_invite
seq_of = Match.objects.seq_of
standing = Match.objects.standing

__all__ = [
    "SWEEP_MOVES",
    "Applied",
    "SeatSpec",
    "absent_since",
    "advance",
    "authorise",
    "by_invite",
    "collecting_notices",
    "conf",
    "create_match",
    "create_match_for",
    "expire_leases",
    "find",
    "get_game",
    "group_name",
    "hash_token",
    "heartbeat_interval",
    "join",
    "known",
    "leave",
    "new_invite",
    "notice",
    "overdue",
    "presence",
    "rematch",
    "renew_leases",
    "replay",
    "resign",
    "send_notices",
    "seq_of",
    "standing",
    "start_with_cpu",
    "submit_action",
    "swap_seats",
    "sweep",
    "token_seats",
]
