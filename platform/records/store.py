"""Records made lazily from finished matches, their replay document built once and kept.

`for_match` is the only way a record comes to exist: a finished match gets one the first
time someone asks (the "view the record" link); a running match never has one.
"""

from __future__ import annotations

import gzip
import json
import re
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from matches.models import Match
from records import replay
from records.models import REPLAY_VERSION, Record

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")


def for_match(match_id: Any) -> Record | None:
    """The record of a finished match (made now if it has none yet); None for a match that
    is not over or does not exist."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return None
    found = Record.objects.filter(match=match).defer("replay", "preview").first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Record.objects.create(match=match)
    except IntegrityError:  # made at the same moment by another request
        return Record.objects.filter(match=match).defer("replay", "preview").get()


def get(record_id: str) -> Record | None:
    """The record with this id; None for a malformed, unknown or purged id."""
    if not isinstance(record_id, str) or not ID_PATTERN.fullmatch(record_id):
        return None
    return (
        Record.objects.select_related("match")
        .defer("replay", "preview")
        .filter(pk=record_id, match__status=Match.Status.FINISHED)
        .first()
    )


def document_gzip(record: Record) -> bytes:
    """The record's replay document as gzip-compressed JSON: built from the log the first
    time (or after `REPLAY_VERSION` changed), then read as stored."""
    row = Record.objects.filter(pk=record.pk).values("replay", "replay_version").first()
    if row and row["replay"] is not None and row["replay_version"] == REPLAY_VERSION:
        return bytes(row["replay"])
    try:
        document = replay.build(record.match)
    except replay.NotReplayable as exc:
        document = {
            "schema": replay.SCHEMA,
            "game": record.match.game,
            "replayable": False,
            "reason": str(exc),
        }
    else:
        document["replayable"] = True
    document["id"] = record.pk
    body = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    Record.objects.filter(pk=record.pk).update(replay=packed, replay_version=REPLAY_VERSION)
    return packed


def document(record: Record) -> dict[str, Any]:
    return json.loads(gzip.decompress(document_gzip(record)))


def keep_max_days() -> int:
    return int(settings.RECORDS_KEEP_MAX_DAYS)


def keep_longer(record: Record) -> Record:
    """Keep the record (and its match) until `RECORDS_KEEP_MAX_DAYS` after the match ended."""
    from records.retention import ended_at

    until = ended_at(record.match) + timedelta(days=keep_max_days())
    record.keep_until = until
    Record.objects.filter(pk=record.pk).update(keep_until=record.keep_until)
    return record


def delete_now(record: Record) -> None:
    """Delete the record and the match it was made from: its seats and its whole log."""
    from records.retention import delete_matches

    delete_matches([record.match_id])
