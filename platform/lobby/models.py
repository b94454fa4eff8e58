"""The lobby's shared store: what every daphne process sees (docs/lobby.md, "The store").

A `Seeker` is a person waiting: in a quick-pairing pool, or as an open seek in the list. A
wave or a taker moves seekers from waiting to paired with a conditional UPDATE (only rows
still waiting), all in one transaction with the `Pairing` they join, so a seeker is in at
most one pairing whatever runs at the same time; a pairing becomes exactly one match
(`Pairing.match_id`, set under the pairing's row lock). No seat token, address or move is
kept here.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.utils import timezone


class Pairing(models.Model):
    """Seekers seated together by a wave (or a seek and its taker), and their match."""

    pool = models.CharField(max_length=80)
    created_at = models.DateTimeField()
    match_id = models.UUIDField(null=True, blank=True)  # set once, when the match starts
    failed = models.BooleanField(default=False)  # the match layer refused: seekers went back

    def __str__(self) -> str:
        return f"pairing {self.pk} ({self.pool})"


class Seeker(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        PAIRED = "paired"
        LEFT = "left"

    class Kind(models.TextChoices):
        POOL = "pool"  # quick pairing
        SEEK = "seek"  # an open seek in the list: anyone may take it

    kind = models.CharField(max_length=4, choices=Kind.choices)
    pool = models.CharField(max_length=80)  # a quick pool's key; "" for an open seek
    game = models.CharField(max_length=32)
    settings = models.JSONField()
    seats = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lobby_seekers",
    )
    # Who is waiting: "u<id>" for a signed-in person, "g<random>" for a guest's browser
    # (kept in its session). Used to tell them, and never to pair a person with themself.
    person = models.CharField(max_length=40)
    handle = models.CharField(max_length=40, blank=True)  # "" shows as a guest
    rating = models.FloatField(default=1500.0)
    provisional = models.BooleanField(default=True)
    rating_low = models.FloatField(null=True, blank=True)
    rating_high = models.FloatField(null=True, blank=True)
    misses = models.PositiveIntegerField(default=0)
    flagged = models.BooleanField(default=False)  # fair play: meets flagged accounts only
    last_opponents = models.JSONField(default=list)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    joined_at = models.DateTimeField()
    seen_at = models.DateTimeField(
        default=timezone.now
    )  # its socket's last sign of life (ticker.STALE)
    paired_at = models.DateTimeField(null=True, blank=True)
    pairing = models.ForeignKey(
        Pairing, null=True, blank=True, on_delete=models.SET_NULL, related_name="seekers"
    )

    class Meta:
        indexes = [models.Index(fields=["pool", "status"], name="lobby_seeker_pool_status")]
        constraints = [
            # One place per person per pool (and one open seek each).
            models.UniqueConstraint(
                fields=["person", "pool", "kind"],
                condition=models.Q(status="waiting"),
                name="lobby_one_wait_per_pool",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} ({self.pool or self.game}, {self.status})"


class PoolState(models.Model):
    """One row per quick pool: its lock (the wave runner holds it) and its recent waits."""

    pool = models.CharField(max_length=80, primary_key=True)
    last_wave_at = models.DateTimeField(null=True, blank=True)
    recent_waits = models.JSONField(default=list)  # seconds, the last 20 pairings

    def __str__(self) -> str:
        return self.pool


class Abandonment(models.Model):
    """A rated game a signed-in person abandoned (a forfeited seat), once per match."""

    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_abandonments"
    )
    match_id = models.UUIDField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match_id"], name="lobby_abandon_once")
        ]

    def __str__(self) -> str:
        return f"abandonment {self.pk}"


class FairPlay(models.Model):
    """An account's last karuta take times (ms after the deciding kana) and its flag."""

    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lobby_fairplay"
    )
    takes = models.JSONField(default=list)
    flagged = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"fair play {self.user_id}"


class TakesCounted(models.Model):
    """A rated karuta match whose take times are in its players' FairPlay records: once."""

    match_id = models.UUIDField(primary_key=True)

    def __str__(self) -> str:
        return "takes counted"
