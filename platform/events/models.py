"""Events: an organiser's knockout, Swiss or arena, its entrants, rounds and boards
(docs/events.md). A board is an ordinary match (matches.services.create_match_for): the event
keeps only the match's id, never a seat token, an address or a move."""

from __future__ import annotations

import secrets

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def new_code() -> str:
    return secrets.token_urlsafe(8)


def new_key() -> str:
    return secrets.token_urlsafe(12)


class EventQuerySet(models.QuerySet):
    def listed(self):
        """Open events still to come or running, soonest first (by-link ones never listed)."""
        return (
            self.filter(by_link=False).exclude(status=Event.Status.FINISHED).order_by("starts_at")
        )

    def running_arenas(self):
        return self.filter(kind=Event.Kind.ARENA, status=Event.Status.RUNNING)


class Event(models.Model):
    class Kind(models.TextChoices):
        KNOCKOUT = "knockout", _("Knockout")
        SWISS = "swiss", _("Swiss")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Not started")
        RUNNING = "running", _("Running")
        FINISHED = "finished", pgettext_lazy("event", "Finished")

    code = models.CharField(max_length=16, unique=True, default=new_code)  # its address
    join_key = models.CharField(max_length=24, default=new_key)  # by link: needed to join
    organiser = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organised_events"
    )
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    choice = models.CharField(max_length=24)  # one of events.gamechoice.CHOICES
    game = models.CharField(max_length=32)
    settings = models.JSONField()
    division = models.CharField(
        max_length=1, blank=True
    )  # "" or A..E (events.gamechoice.DIVISIONS)
    by_link = models.BooleanField(default=False)
    rated = models.BooleanField(default=True)
    starts_at = models.DateTimeField()
    rounds_total = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss
    break_seconds = models.PositiveIntegerField(default=60)  # between knockout/Swiss rounds
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)  # arena length
    paused = models.BooleanField(default=False)  # the next round waits for the organiser
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.SCHEDULED)
    version = models.PositiveIntegerField(default=0)  # bumped on every change pages show
    created = models.DateTimeField(auto_now_add=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_entries"
    )
    rating = models.FloatField()  # at joining, refreshed when the event starts: the seeding
    withdrawn = models.BooleanField(default=False)
    # The arena's tally (events.arena.Tally) and whether the entrant waits for a board.
    score = models.IntegerField(default=0)
    run = models.PositiveSmallIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    waiting_since = models.DateTimeField(null=True, blank=True)
    last_opponent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="events_one_entry_each")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.event_id}"


class RoundQuerySet(models.QuerySet):
    def due(self, now):
        """Rounds whose time has come and that nobody has started, of events not paused."""
        return self.filter(started_at__isnull=True, due_at__lte=now, event__paused=False).exclude(
            event__status=Event.Status.FINISHED
        )


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    due_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)  # set once, by the one starter
    decided_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="events_one_round_each")
        ]
        indexes = [models.Index(fields=["started_at", "due_at"])]

    def __str__(self) -> str:
        return f"round {self.number} of {self.event_id}"


class Board(models.Model):
    class Result(models.TextChoices):
        PENDING = "pending", _("Playing")
        PLAYED = "played", _("Played")
        BYE = "bye", _("Bye")
        FORFEIT = "forfeit", _("Forfeit")  # a seat forfeited (absent, left, resigned)
        WITHDRAWN = "withdrawn", _("Withdrawn")  # the organiser withdrew one of the two

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="boards"
    )  # None: an arena board
    position = models.PositiveIntegerField()  # in its round (knockout: bracket position)
    a = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")  # seat 0
    b = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )  # seat 1; None for a bye
    # A table game's board (events.tables): the entrant id at each seat (None: the CPU's
    # seat); `a` is its first entrant and `b` None. Empty for a board of two.
    seats = models.JSONField(default=list, blank=True)
    places = models.JSONField(default=list, blank=True)  # each seat's place, once played
    match_id = models.UUIDField(null=True, blank=True, unique=True)
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.CharField(max_length=9, choices=Result.choices, default=Result.PENDING)
    created = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["event", "result"])]

    def __str__(self) -> str:
        return f"board {self.position} of {self.event_id}"

    @property
    def decided(self) -> bool:
        return self.result != self.Result.PENDING

    @property
    def is_table(self) -> bool:
        return bool(self.seats)

    def entrant_ids(self) -> list[int]:
        """The entrants at this board (not the CPU's seats)."""
        if self.seats:
            return [eid for eid in self.seats if eid is not None]
        return [eid for eid in (self.a_id, self.b_id) if eid is not None]
