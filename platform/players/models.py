"""Players: a profile beside Django's own User, and what signs a player in.

No table here holds an IP address, an e-mail address or a user agent string
(docs/requirements.md §6, §9). User.username is the display handle (NFKC); the
profile's handle_key is what makes handles unique.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_webauthn_id() -> bytes:
    return secrets.token_bytes(32)


_webauthn_user_id = new_webauthn_id  # the name migration 0001 refers to


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    handle_key = models.CharField(max_length=80, unique=True)
    # The WebAuthn user handle: random, so a passkey names no account detail.
    webauthn_id = models.BinaryField(max_length=32, default=new_webauthn_id, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    keep_trainer = models.BooleanField(default=False)

    def __str__(self) -> str:
        return self.user.get_username()


class Passkey(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="passkeys"
    )
    credential_id = models.BinaryField(max_length=1024, unique=True)
    public_key = models.BinaryField(max_length=2048)
    sign_count = models.PositiveBigIntegerField(default=0)
    transports = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"passkey {self.pk} of user {self.user_id}"


class RecoveryCode(models.Model):
    """One of the codes shown once at sign-up; only a SHA-256 of it is kept (the codes are
    random, about 59 bits each, so a slow hash would add nothing)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="recovery_codes"
    )
    digest = models.CharField(max_length=64, unique=True)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"recovery code {self.pk} of user {self.user_id}"


class DeviceSession(models.Model):
    """A signed-in session, for the account page's list and "sign out everywhere". The
    device is a coarse family (browser and system), never the user agent or an address."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_sessions"
    )
    session_key = models.CharField(max_length=40, unique=True)
    device = models.CharField(max_length=40, blank=True)
    method = models.CharField(max_length=16)  # passkey, password, recovery, code, signup
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.device or 'session'} of user {self.user_id}"


class SignInCode(models.Model):
    """A one-time code and link made on a signed-in device to let another one in: works
    once, within settings.PLAYERS_SIGNIN_CODE_MINUTES. Only digests are kept."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signin_codes"
    )
    code_digest = models.CharField(max_length=64, unique=True)
    link_digest = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"sign-in code {self.pk} of user {self.user_id}"


class TrainerReview(models.Model):
    """One review from the trainer's log, kept in the account at the player's choice. Its
    id is the review's time and poem (the log's entry key), so importing the same export
    twice, or two overlapping ones, adds each review once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trainer_reviews"
    )
    review_id = models.CharField(max_length=40)
    at_ms = models.FloatField()
    poem = models.PositiveSmallIntegerField()
    rating = models.PositiveSmallIntegerField()
    answer_ms = models.FloatField()
    drill = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "review_id"], name="one_review_per_id")
        ]

    def __str__(self) -> str:
        return self.review_id


class TrainerPoem(models.Model):
    """The trainer's record of one poem (its schedule card and counts) as last imported."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="trainer_poems"
    )
    poem = models.PositiveSmallIntegerField()
    record = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "poem"], name="one_record_per_poem")]

    def __str__(self) -> str:
        return f"poem {self.poem} of user {self.user_id}"
