"""Seat tokens: 256 random bits, of which only the SHA-256 is stored, compared in constant
time; and which seats a socket still holds."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from typing import Any

from matches.errors import MatchError
from matches.models import Match, Seat


def new_token() -> str:
    """256 random bits; only its hash is stored."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seats_for_token(seats: Iterable[Seat], token: str | None) -> list[int]:
    """Indices of the seats this token holds, compared in constant time."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return []
    digest = hash_token(token)
    held = []
    for seat in seats:
        # compare_digest against every seat, empty ones too, so timing tells nothing.
        if hmac.compare_digest(digest, seat.token_hash or "-" * 64) and seat.token_hash:
            held.append(seat.index)
    return held


def token_seats(match_id: Any, token: str | None) -> list[int]:
    return seats_for_token(Seat.objects.filter(match_id=match_id), token)


def authorise(match_id: Any, token: str | None) -> list[int]:
    """The seats a socket's token holds at hello (none: a spectator); no such match: refused."""
    if not Match.objects.known(match_id):
        raise MatchError("not_found")
    return token_seats(match_id, token)


def still_held(seats: Iterable[Seat], held: Iterable[int]) -> list[int]:
    """The seats of `held` a socket still holds: a seat handed to the CPU (its player left)
    has no token any more. A socket keeps the seats it had at hello, so every act and room
    operation checks them against the match again."""
    held = set(held)
    return [s.index for s in seats if s.index in held and not s.is_cpu and s.token_hash]
