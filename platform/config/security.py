"""Hooks for django-axes (admin login lockout) that keep client addresses out of it."""

from __future__ import annotations


def no_client_address(request) -> None:
    """AXES_CLIENT_IP_CALLABLE: axes records and logs what this returns as the client's
    address. Lockouts are per username, so it needs none (docs/requirements.md §6)."""
    return None
