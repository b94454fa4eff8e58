"""A player's current rating per rating key, one history row per rated game, and the
marker that makes each finished match's update happen once (docs/ratings.md)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models

from ratings import pure


class Rating(models.Model):
    """A player's current rating for one key (no row: the starting rating)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    key = models.CharField(max_length=40)
    rating = models.FloatField(default=pure.START_RATING)
    deviation = models.FloatField(default=pure.START_DEVIATION)
    volatility = models.FloatField(default=pure.START_VOLATILITY)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    # Until when this rating is on its leaderboard without another game: played in the last
    # 30 days and its deviation, growing while idle, at most 75 (None: it is not settled).
    board_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="rating_user_key_unique"),
        ]
        indexes = [
            # The leaderboard: by key, best first, with what it filters on (index-only).
            models.Index(fields=["key", "-rating", "board_until"], name="rating_board_until"),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.rating:.0f}"

    def glicko(self) -> pure.Rating:
        """As stored: as of the last game."""
        return pure.Rating(self.rating, self.deviation, self.volatility)

    def live(self, now) -> pure.Rating:
        """As of `now`: the deviation grown over the days since the last game."""
        if self.last_played is None:
            return self.glicko()
        return pure.idle(self.glicko(), (now - self.last_played).total_seconds() / 86400)

    def settle(self) -> None:
        """Set board_until from the rating as of its last game."""
        days = pure.days_settled(self.glicko())
        if days is None or self.last_played is None:
            self.board_until = None
        else:
            days = min(days, pure.LEADERBOARD_ACTIVE_DAYS)
            self.board_until = self.last_played + timedelta(days=days)


class RatingChange(models.Model):
    """One rated game of one player: the rating after it (the profile's chart)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    key = models.CharField(max_length=40)
    # No foreign key: finished matches are deleted after their retention, the history stays.
    match_id = models.UUIDField()
    played_at = models.DateTimeField()
    rating_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    place = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match_id"], name="rating_change_once"),
        ]
        indexes = [models.Index(fields=["user", "key", "played_at"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.key} {self.rating_before:.0f} -> {self.rating:.0f}"


class AppliedMatch(models.Model):
    """A finished rated match whose outcome has been dealt with: its update applied, or
    found unrated (`key` empty, `reason` why). Unique by match id: the one gate that makes
    a receiver, a sweep and a retry apply a match once."""

    match_id = models.UUIDField(unique=True)
    key = models.CharField(max_length=40, blank=True)
    reason = models.CharField(max_length=60, blank=True)  # why unrated ("" when applied)
    applied_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"applied {self.match_id}"
