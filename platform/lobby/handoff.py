"""Handing a lobby match's seat to its person without a seat token in any lobby frame.

The process that starts a match holds each person's seat token for a moment. It keeps it
under a one-time ticket in the lobby cache (Redis with REDIS_URL, this process's memory
on the embedded defaults) for TICKET_SECONDS, and tells the person's sockets only the
ticket's address. Their page posts to it (CSRF, same person's session), and that request,
served by any process, takes the token out of the cache, sets the usual seat cookie scoped
to the match and goes there. The token never reaches the database, a log line or a frame;
a ticket is good once, for its own person, for two minutes."""

from __future__ import annotations

import secrets
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import caches
from django.urls import reverse

TICKET_SECONDS = 120


def cache():
    return caches["lobby"]


def person_group(person: str) -> str:
    return f"lobby.p.{person}"


def offer(person: str, match_id: Any, token: str) -> str:
    """Keep the token under a new ticket; return the ticket's address."""
    ticket = secrets.token_urlsafe(24)
    cache().set(f"lobby:seat:{ticket}", (person, str(match_id), token), TICKET_SECONDS)
    return reverse("lobby:seat", args=[ticket])


def redeem(ticket: str, person: str) -> tuple[str, str] | None:
    """(match id, token) for this person's ticket, once; None otherwise."""
    key = f"lobby:seat:{ticket}"
    held = cache().get(key)
    if held is None or held[0] != person:
        return None
    if not cache().delete(key):  # another request redeemed it first
        return None
    return held[1], held[2]


def tell(person: str, go: str) -> None:
    """Tell the person's lobby sockets (any process) where their seat waits."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(person_group(person), {"type": "lobby.paired", "go": go})


def hand_over_one(person: str, match_id: Any, token: str) -> None:
    """One person's seat: a ticket kept for them, its address told to their sockets."""
    tell(person, offer(person, match_id, token))


def available() -> bool:
    """Whether the hand-off's store answers (pairing pauses while it does not)."""
    try:
        cache().get("lobby:alive")
    except Exception:
        return False
    return True
