"""Trainer progress kept in the account, at the player's choice: the trainer's own export
file (static/js/trainer/data-file.js, format "hyakunin-trainer" version 1), checked as the
trainer checks it and merged by review id. The trainer itself stays in the browser and
works offline and signed out; this is a copy the player sends."""

from __future__ import annotations

import json
import math

from django.db import transaction

from players.models import TrainerPoem, TrainerReview

FORMAT, VERSION = "hyakunin-trainer", 1
CARD_NUMBERS = ("stability", "difficulty", "elapsed_days", "scheduled_days", "reps", "lapses",
                "learning_steps", "state")  # fmt: skip
MAX_REVIEWS = 200_000


class TrainerFileError(Exception):
    """`reason`: not-json, foreign, version, damaged (the trainer's own codes)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _time(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v >= 0


def _poem(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100


def _card_ok(card) -> bool:
    if card is None:
        return True
    if not isinstance(card, dict) or not _time(card.get("due")):
        return False
    if card.get("last_review") is not None and not _time(card["last_review"]):
        return False
    return all(_time(card.get(k)) for k in CARD_NUMBERS) and card["state"] <= 3


def _record_ok(r) -> bool:
    if not isinstance(r, dict) or not _poem(r.get("n")):
        return False
    if not _count(r.get("seen")) or not _count(r.get("misses")) or r["misses"] > r["seen"]:
        return False
    for key in ("ms", "first", "asked"):
        if r.get(key) is not None and not _time(r[key]):
            return False
    confused = r.get("confused")
    if not isinstance(confused, dict):
        return False
    if not all(k.isdigit() and _poem(int(k)) and _count(v) for k, v in confused.items()):
        return False
    return _card_ok(r.get("card"))


def _entry_ok(e) -> bool:
    return (
        isinstance(e, list) and len(e) == 5 and _time(e[0]) and _poem(e[1])
        and isinstance(e[2], int) and 1 <= e[2] <= 4 and _time(e[3]) and _count(e[4])
    )  # fmt: skip


def parse(text: str | bytes) -> tuple[list[dict], list[list]]:
    """(poem records, log entries) of a trainer export, or TrainerFileError: a file that is
    not sound is refused whole, as the trainer's own import does."""
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise TrainerFileError("not-json") from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TrainerFileError("foreign")
    if data.get("version") != VERSION:
        raise TrainerFileError("version")
    poems, log = data.get("poems"), data.get("log")
    if not isinstance(poems, list) or not isinstance(log, list) or len(log) > MAX_REVIEWS:
        raise TrainerFileError("damaged")
    if not all(map(_record_ok, poems)) or not all(map(_entry_ok, log)):
        raise TrainerFileError("damaged")
    if len({r["n"] for r in poems}) != len(poems):
        raise TrainerFileError("damaged")
    return poems, log


def review_id(entry: list) -> str:
    """A review is its moment and its poem: the same review in two exports has both."""
    return f"{entry[0]:.0f}-{entry[1]}"


@transaction.atomic
def merge(user, poems: list[dict], log: list[list]) -> int:
    """Adds the reviews not kept yet (how many) and takes each poem's record from the file
    unless the kept one has seen more reviews. Idempotent: the same file twice adds nothing."""
    known = set(TrainerReview.objects.filter(user=user).values_list("review_id", flat=True))
    fresh: dict[str, TrainerReview] = {}
    for e in log:
        rid = review_id(e)
        if rid not in known and rid not in fresh:
            fresh[rid] = TrainerReview(user=user, review_id=rid, at_ms=e[0], poem=e[1],
                                       rating=e[2], answer_ms=e[3], drill=e[4])  # fmt: skip
    TrainerReview.objects.bulk_create(fresh.values(), batch_size=1000)
    kept = {p.poem: p for p in TrainerPoem.objects.filter(user=user)}
    for record in poems:
        old = kept.get(record["n"])
        if old is None:
            TrainerPoem.objects.create(user=user, poem=record["n"], record=record)
        elif record["seen"] >= old.record.get("seen", 0):
            old.record = record
            old.save(update_fields=["record"])
    return len(fresh)


def export(user) -> dict:
    """The kept progress as a trainer export file (the trainer can import it back)."""
    log = [
        [r.at_ms, r.poem, r.rating, r.answer_ms, r.drill]
        for r in TrainerReview.objects.filter(user=user).order_by("at_ms", "poem")
    ]
    poems = [p.record for p in TrainerPoem.objects.filter(user=user).order_by("poem")]
    return {"format": FORMAT, "version": VERSION, "poems": poems, "log": log}


def summary(user) -> dict:
    poems = list(TrainerPoem.objects.filter(user=user).values_list("record", flat=True))
    learned = sum(1 for r in poems if (r.get("card") or {}).get("state") == 2)
    return {
        "reviews": TrainerReview.objects.filter(user=user).count(),
        "poems_seen": sum(1 for r in poems if r.get("seen")),
        "learned": learned,
    }


def forget(user) -> None:
    TrainerReview.objects.filter(user=user).delete()
    TrainerPoem.objects.filter(user=user).delete()
