"""Every game in progress: a Match, its Seats and its append-only Action log.

The log is the truth. `Match.state` is a snapshot cached for speed; replaying the
log from the seed (see `services.replay`) reproduces it. The seed and the seat
tokens never leave the server: tokens are stored as SHA-256 hashes only.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

import gamekit
from gamekit import colour_label


def group_name(match_id: Any) -> str:
    """The channel-layer group of a match's sockets (the one place it is spelled)."""
    hex_id = match_id.hex if hasattr(match_id, "hex") else str(match_id).replace("-", "")
    return f"match.{hex_id}"


class MatchQuerySet(models.QuerySet):
    """The match layer's reads that are not the move path's (log.py has those)."""

    def known(self, match_id: Any) -> bool:
        return self.filter(pk=match_id).exists()

    def find(self, match_id: Any) -> Match | None:
        """The match, or None: no such match."""
        return self.filter(pk=match_id).first()

    def by_invite(self, code: str) -> Match | None:
        """The friend room this invite code opens, or None."""
        return self.filter(invite_code=code).first()

    def seq_of(self, match_id: Any) -> int | None:
        """The match's seq as the database has it now (None: no such match)."""
        return self.filter(pk=match_id).values_list("seq", flat=True).first()

    def standing(self, match_id: Any) -> tuple[int, str, datetime | None] | None:
        """(seq, status, due_at), or None: no such match."""
        return self.filter(pk=match_id).values_list("seq", "status", "due_at").first()

    def overdue(self, cutoff: Any) -> MatchQuerySet:
        """Playing matches whose server-side move was due by `cutoff`."""
        return self.filter(status=Match.Status.PLAYING, due_at__lte=cutoff)

    def finished_since(self, when: datetime) -> MatchQuerySet:
        """Matches finished at or after `when`, oldest first: the catch-up sweep of
        `match_finished`'s receivers (matches/signals.py; `outcome_of` each)."""
        return self.filter(status=Match.Status.FINISHED, finished_at__gte=when).order_by(
            "finished_at"
        )


class Match(models.Model):
    # The contract's modes (gamekit.Mode), as the field's choices: one list of modes.
    Mode = models.TextChoices("Mode", [(mode.name, mode.value) for mode in gamekit.Mode])

    class Status(models.TextChoices):
        WAITING = "waiting"  # a friend room filling its seats
        PLAYING = "playing"
        FINISHED = "finished"  # the game's result, or a resignation

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.SlugField(max_length=40)
    settings = models.JSONField(default=dict)
    seed = models.BigIntegerField()  # server-side only: never serialised to a client
    mode = models.CharField(max_length=10, choices=Mode.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    seq = models.PositiveIntegerField(default=0)  # the last action's sequence number
    state = models.JSONField(null=True, blank=True)  # snapshot after action `seq`
    outcome = models.JSONField(null=True, blank=True)  # platform outcome, e.g. a resignation
    finished_at = models.DateTimeField(null=True, blank=True)  # set once, by signals.finish
    # Turn clocks: {"<seat>": ms since the epoch when its turn began, "last": last move}.
    turns = models.JSONField(default=dict)
    # When the server must act by itself (a CPU move, a disconnected player's turn).
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    invite_code = models.CharField(max_length=32, unique=True, null=True, blank=True)
    # Counts toward ratings (another app's business: this layer only keeps the flag). Made
    # False at the start unless every seat is a signed-in person (rooms.start_match).
    rated = models.BooleanField(default=False)
    next_match = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous_match"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["status", "updated"]),
            models.Index(fields=["finished_at"], name="match_finished_at"),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.mode} match"

    @property
    def group_name(self) -> str:
        return group_name(self.id)


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human"
        CPU = "cpu"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    colour = models.CharField(max_length=10)
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.HUMAN)
    cpu_level = models.CharField(max_length=20, blank=True)
    # sha256 hex of the seat token; "" while a human seat is empty. Hot-seat seats share one.
    token_hash = models.CharField(max_length=64, blank=True)
    is_owner = models.BooleanField(default=False)  # the creator: may start a friend room
    # The signed-in person who holds the seat (None: a guest or a CPU). Kept when the CPU
    # takes the seat over, so a finished match still says whose seat it was.
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="match_seats",
    )
    connections = models.IntegerField(default=0)  # open sockets (across processes)
    last_seen = models.DateTimeField(null=True, blank=True)  # heartbeat: catches crashed servers
    disconnected_since = models.DateTimeField(null=True, blank=True)
    away_ms = models.PositiveIntegerField(default=0)  # own-turn time absent, past turns

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_index_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} ({self.colour})"

    @property
    def colour_label(self) -> str:
        return colour_label(self.colour)

    @property
    def is_cpu(self) -> bool:
        return self.kind == self.Kind.CPU

    @property
    def is_taken(self) -> bool:
        return self.is_cpu or bool(self.token_hash)

    @property
    def handle(self) -> str | None:
        """The seat's person's handle (None: a guest or a CPU, shown by colour). Reads the
        user row unless it was loaded with the seat (select_related, or `handles_of`)."""
        return self.user.get_username() if self.user_id is not None else None


class Action(models.Model):
    """One line of a match's log: a game action or a room change (join, start, resign …)."""

    class Kind(models.TextChoices):
        GAME = "game"  # replayed through the engine
        ROOM = "room"  # seats and status; not part of the engine's input

    class Actor(models.TextChoices):
        HUMAN = "human"
        CPU = "cpu"
        TIMEOUT = "timeout"  # the CPU playing a disconnected player's turn
        SYSTEM = "system"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=4, choices=Kind.choices, default=Kind.GAME)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    events = models.JSONField(default=list)  # what it caused; filtered per seat when sent
    actor = models.CharField(max_length=7, choices=Actor.choices)
    # NULL for server moves; the constraint below keeps ids unique among the rest.
    client_action_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="action_seq_unique"),
            models.UniqueConstraint(
                fields=["match", "client_action_id"],
                condition=Q(client_action_id__isnull=False),
                name="action_client_id_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"action {self.seq}"


class Lease(models.Model):
    """Which process writes a match (matches/owner.py): the
    channel its acts are forwarded to, until when, and the epoch (one more at each change
    of owner). Taken and renewed with one conditional UPDATE (matches/lease.py); kept in the
    database, so it outlives a Redis outage. The log's unique (match, seq) is the fence."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="lease"
    )
    owner = models.CharField(max_length=200)
    epoch = models.PositiveIntegerField(default=1)
    expires = models.DateTimeField()

    def __str__(self) -> str:
        return f"lease {self.epoch}"
