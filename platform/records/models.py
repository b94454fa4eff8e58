"""A finished match's record: its own random id (never the match's), made lazily the first
time someone asks for it, with the replay and the preview image built once and kept.

The match log stays the truth: the replay is rebuilt from it whenever `REPLAY_VERSION`
changes. Retention (`records.retention`) deletes the match, and so its record, with it.
"""

from __future__ import annotations

import secrets

from django.db import models

from matches.models import Match

# Bump when the stored replay's shape changes: older stored replays are rebuilt from the log.
REPLAY_VERSION = 1


def new_record_id() -> str:
    """22 url-safe characters (128 random bits): says nothing about the match."""
    return secrets.token_urlsafe(16)


class Record(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_record_id, editable=False)
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="record")
    created = models.DateTimeField(auto_now_add=True)
    # A seated player asked to keep it past the usual retention (at most RECORDS_KEEP_MAX_DAYS).
    keep_until = models.DateTimeField(null=True, blank=True)
    # The replay as served (gzip-compressed JSON) and the share preview (PNG): built once.
    replay = models.BinaryField(null=True, editable=False)
    replay_version = models.PositiveSmallIntegerField(default=0)
    preview = models.BinaryField(null=True, editable=False)

    def __str__(self) -> str:
        return f"record of a {self.match.game} match"
