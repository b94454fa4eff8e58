"""Your data: everything the site keeps about a player as one JSON file, and deletion of
the account at once."""

from __future__ import annotations

from django.contrib.sessions.models import Session
from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from players import played, trainer
from players.models import DeviceSession, Passkey, RecoveryCode, SignInCode
from ratings import services as ratings_services

# Sent inside the deletion's transaction, before the user row goes, with `user_id`: apps
# built on players (the lobby, events) that keep rows naming a player delete theirs.
account_deleting = Signal()
# Asked for the export, with `user_id`: each receiver returns (section name, JSON data).
# Ratings are asked directly (players imports ratings, never the other way).
export_requested = Signal()


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def export(user) -> dict:
    profile = user.player
    data = {
        "format": "hyakunin-player",
        "version": 1,
        "exported": timezone.now().isoformat(),
        "handle": user.get_username(),
        "joined": _iso(profile.created_at),
        "password": user.has_usable_password(),
        "keep_trainer": profile.keep_trainer,
        "passkeys": [
            {"created": _iso(p.created_at), "last_used": _iso(p.last_used_at),
             "transports": p.transports, "sign_count": p.sign_count}
            for p in Passkey.objects.filter(user=user).order_by("created_at")
        ],
        "recovery_codes": {
            "unused": RecoveryCode.objects.filter(user=user, used_at=None).count(),
            "used": [_iso(c.used_at) for c in RecoveryCode.objects.filter(user=user)
                     .exclude(used_at=None).order_by("used_at")],
        },
        "sessions": [
            {"device": s.device, "method": s.method, "started": _iso(s.created_at)}
            for s in DeviceSession.objects.filter(user=user).order_by("created_at")
        ],
        "games": played.export_games(user),
        "trainer": trainer.export(user),
    }  # fmt: skip
    data["ratings"] = ratings_services.export(user.pk)
    for _receiver, section in export_requested.send(sender=None, user_id=user.pk):
        if section:
            name, value = section
            data[name] = value
    return data


@transaction.atomic
def delete_account(user) -> None:
    """The user and every row naming them, now: sessions, passkeys, codes, trainer
    progress, the profile (cascades), the ratings (ratings.services.forget), what other
    apps keep (account_deleting). Match
    seats keep their colour (Seat.user is SET_NULL in the match layer)."""
    ratings_services.forget(user.pk)
    account_deleting.send(sender=None, user_id=user.pk)
    keys = list(DeviceSession.objects.filter(user=user).values_list("session_key", flat=True))
    Session.objects.filter(session_key__in=keys).delete()
    SignInCode.objects.filter(user=user).delete()
    user.delete()
