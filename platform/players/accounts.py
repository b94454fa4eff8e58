"""Accounts: creating one, recovery codes, one-time sign-in codes, sessions, deletion."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.utils import timezone

from players import handles
from players.models import DeviceSession, Profile, RecoveryCode, SignInCode

RECOVERY_CODES = 10
# No 0/O, 1/I/L, U: codes are read off one screen and typed on another.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _random_code(groups: int) -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(groups))


def canonical_code(typed: str) -> str:
    """What the person typed, as the code was made: upper case, dashes where they belong."""
    letters = "".join(ch for ch in typed.upper() if ch in ALPHABET)
    return "-".join(letters[i : i + 4] for i in range(0, len(letters), 4))


class HandleTaken(Exception):
    pass


@transaction.atomic
def create_account(handle: str, password: str | None = None):
    """A User named by the (already checked) handle, and its profile. HandleTaken when
    another sign-up took the handle meanwhile (the unique key decides)."""
    User = get_user_model()
    try:
        with transaction.atomic():
            user = User(username=handle)
            if password:
                user.set_password(password)
            else:
                user.set_unusable_password()
            user.save()
            Profile.objects.create(user=user, handle_key=handles.handle_key(handle))
    except IntegrityError as error:
        raise HandleTaken(handle) from error
    return user


def user_for_handle(typed: str):
    """The account a typed handle names (any case or width), or None."""
    profile = (
        Profile.objects.select_related("user").filter(handle_key=handles.handle_key(typed)).first()
    )
    return profile.user if profile else None


def new_recovery_codes(user) -> list[str]:
    """Ten new codes (the old ones stop working); only their digests are kept."""
    codes = [_random_code(3) for _ in range(RECOVERY_CODES)]
    with transaction.atomic():
        RecoveryCode.objects.filter(user=user).delete()
        RecoveryCode.objects.bulk_create(RecoveryCode(user=user, digest=digest(c)) for c in codes)
    return codes


def use_recovery_code(user, typed: str) -> bool:
    """True (and the code spent) when `typed` is one of the user's unused codes."""
    return bool(
        RecoveryCode.objects.filter(
            user=user, digest=digest(canonical_code(typed)), used_at=None
        ).update(used_at=timezone.now())
    )


def code_lifetime() -> timedelta:
    return timedelta(minutes=getattr(settings, "PLAYERS_SIGNIN_CODE_MINUTES", 5))


def new_signin_code(user) -> tuple[str, str, SignInCode]:
    """(code to type, token for the link, row): a new one replaces any unused one."""
    code, token = _random_code(2), secrets.token_urlsafe(24)
    with transaction.atomic():
        SignInCode.objects.filter(user=user).delete()
        row = SignInCode.objects.create(
            user=user,
            code_digest=digest(code),
            link_digest=digest(token),
            expires_at=timezone.now() + code_lifetime(),
        )
    return code, token, row


def redeem_signin_code(*, code: str = "", token: str = ""):
    """The user a live, unused code (or link token) lets in, spending it; else None."""
    if code:
        found = SignInCode.objects.filter(code_digest=digest(canonical_code(code)))
    elif token:
        found = SignInCode.objects.filter(link_digest=digest(token))
    else:
        return None
    now = timezone.now()
    with transaction.atomic():
        row = found.select_for_update().select_related("user").first()
        if row is None or row.used_at is not None or row.expires_at <= now:
            return None
        # Spent at once, whatever follows: a code works once.
        SignInCode.objects.filter(pk=row.pk, used_at=None).update(used_at=now)
    return row.user


def peek_signin_link(token: str):
    row = (
        SignInCode.objects.filter(
            link_digest=digest(token), used_at=None, expires_at__gt=timezone.now()
        )
        .select_related("user")
        .first()
    )
    return row.user if row else None


def live_sessions(user) -> list[DeviceSession]:
    """The user's sessions that still exist; rows of expired or flushed ones are dropped."""
    rows = list(DeviceSession.objects.filter(user=user).order_by("-created_at"))
    live = set(
        Session.objects.filter(
            session_key__in=[r.session_key for r in rows], expire_date__gt=timezone.now()
        ).values_list("session_key", flat=True)
    )
    DeviceSession.objects.filter(user=user).exclude(session_key__in=live).delete()
    return [r for r in rows if r.session_key in live]


def sign_out_everywhere(user) -> int:
    """Ends every session of the user (this one too); how many there were."""
    keys = list(DeviceSession.objects.filter(user=user).values_list("session_key", flat=True))
    Session.objects.filter(session_key__in=keys).delete()
    DeviceSession.objects.filter(user=user).delete()
    return len(keys)
