"""The lobby's database side: joining and leaving, open seeks, running a pool's wave,
starting a pairing's match. Every process runs the same code on the same rows; what keeps a
seeker in at most one match is said where it is done (docs/lobby.md, "Exactly once").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from lobby import cooldown, pairing, pools, rating, timing
from lobby.models import Abandonment, FairPlay, Pairing, PoolState, Seeker

RECENT_WAITS = 20


class LobbyError(Exception):
    """A refused lobby request: `code` says why (the page words it)."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.code = code
        self.details = details


@dataclass(frozen=True)
class Person:
    """Who is asking: `key` ("u<id>" or a guest's "g<random>"), the user id if signed in."""

    key: str
    user_id: int | None = None
    handle: str = ""


def policy() -> timing.WavePolicy:
    from django.conf import settings

    return timing.WavePolicy(
        interval=getattr(settings, "LOBBY_WAVE_SECONDS", timing.DEFAULT.interval),
        size=getattr(settings, "LOBBY_WAVE_SIZE", timing.DEFAULT.size),
        cpu_offer_after=getattr(
            settings, "LOBBY_CPU_OFFER_SECONDS", timing.DEFAULT.cpu_offer_after
        ),
    )


# --- fair play reads ---------------------------------------------------------------------


def active_cooldown(user_id: int, now: datetime) -> cooldown.Cooldown | None:
    since = now - cooldown.REPEAT_WINDOW - cooldown.MEMORY - cooldown.CAP
    moments = Abandonment.objects.filter(user_id=user_id, at__gte=since).values_list(
        "at", flat=True
    )
    return cooldown.active(list(moments), now)


def is_flagged(user_id: int | None) -> bool:
    return user_id is not None and FairPlay.objects.filter(user_id=user_id, flagged=True).exists()


def last_opponents(person: str) -> list[str]:
    """The people of this person's last lobby game."""
    last = (
        Seeker.objects.filter(person=person, status=Seeker.Status.PAIRED)
        .exclude(pairing=None)
        .order_by("-paired_at")
        .values_list("pairing_id", flat=True)
        .first()
    )
    if last is None:
        return []
    return list(
        Seeker.objects.filter(pairing_id=last)
        .exclude(person=person)
        .values_list("person", flat=True)
    )


def _rating_of(person: Person, game: str, settings: Mapping[str, Any]) -> rating.RatingView | None:
    key = rating.rating_key(game, "friend", dict(settings))
    if person.user_id is None or key is None:
        return None
    return rating.current(person.user_id, key)


# --- joining and leaving -----------------------------------------------------------------


def _check_rated(person: Person, rated: bool, now: datetime) -> None:
    if not rated:
        return
    if person.user_id is None:
        raise LobbyError("sign_in_to_rate")
    ban = active_cooldown(person.user_id, now)
    if ban is not None:
        raise LobbyError("cooldown", until=ban.end, abandonments=ban.recent_abandonments)


def join_pool(
    pool_key: str,
    person: Person,
    rating_range: tuple[float, float] | None = None,
    now: datetime | None = None,
) -> Seeker:
    """Wait in a quick pool (the place kept if already waiting there)."""
    now = now or timezone.now()
    pool = pools.get(pool_key)
    if pool is None:
        raise LobbyError("no_such_pool")
    _check_rated(person, pool.rated, now)
    view = _rating_of(person, pool.game, pool.settings)
    PoolState.objects.get_or_create(pool=pool.key)
    fields = dict(
        kind=Seeker.Kind.POOL,
        pool=pool.key,
        game=pool.game,
        settings=dict(pool.settings),
        seats=pool.seats,
        rated=pool.rated,
        user_id=person.user_id,
        person=person.key,
        handle=person.handle,
        rating=view.rating if view else 1500.0,
        provisional=view.provisional if view else True,
        rating_low=rating_range[0] if rating_range else None,
        rating_high=rating_range[1] if rating_range else None,
        flagged=is_flagged(person.user_id),
        last_opponents=last_opponents(person.key),
        joined_at=now,
        seen_at=now,
    )
    return _create_waiting(fields, person.key, pool.key, Seeker.Kind.POOL)


def _create_waiting(fields: dict[str, Any], person: str, pool: str, kind: str) -> Seeker:
    try:
        with transaction.atomic():
            return Seeker.objects.create(**fields)
    except IntegrityError:  # already waiting there (the unique constraint)
        return Seeker.objects.get(person=person, pool=pool, kind=kind, status=Seeker.Status.WAITING)


def open_seek(
    game: str, posted: Mapping[str, Any], rated: bool, person: Person, now: datetime | None = None
) -> Seeker:
    """An open seek in the list, from the game's own settings form (SettingsRefused carries
    the form's errors)."""
    now = now or timezone.now()
    import gamekit

    try:
        game_obj = gamekit.registry.get(game)
    except gamekit.NotRegistered:
        raise LobbyError("no_such_game") from None
    settings = pools.game_settings(game, posted)
    seats = game_obj.player_count(settings)
    if seats < 2 or "friend" not in {m.value for m in game_obj.modes}:
        raise LobbyError("not_online")
    if rated and rating.rating_key(game, "friend", settings) is None:
        raise LobbyError("not_rated_game")
    _check_rated(person, rated, now)
    view = _rating_of(person, game, settings)
    fields = dict(
        kind=Seeker.Kind.SEEK,
        pool="",
        game=game,
        settings=settings,
        seats=seats,
        rated=rated,
        user_id=person.user_id,
        person=person.key,
        handle=person.handle,
        rating=view.rating if view else 1500.0,
        provisional=view.provisional if view else True,
        flagged=is_flagged(person.user_id),
        joined_at=now,
        seen_at=now,
    )
    return _create_waiting(fields, person.key, "", Seeker.Kind.SEEK)


def leave(person: str, seek: int | None = None) -> int:
    """Take this person's waiting places out: all of them, or (`seek`) their own open seek
    or their seat at that seek's table. A place a wave has paired already is not taken
    back: that person has a match. An open seek that goes takes its table's seats along."""
    rows = Seeker.objects.filter(person=person, status=Seeker.Status.WAITING)
    if seek is not None:
        rows = rows.filter(Q(id=seek, pool="") | Q(pool=taker_pool(seek)))
    own = rows.filter(kind=Seeker.Kind.SEEK, pool="").values_list("id", flat=True)
    tables = [taker_pool(i) for i in own]
    with transaction.atomic():
        left = rows.update(status=Seeker.Status.LEFT)
        if tables:
            Seeker.objects.filter(pool__in=tables, status=Seeker.Status.WAITING).update(
                status=Seeker.Status.LEFT
            )
    return left


def seek_of(place: Seeker) -> int | None:
    """The open seek a place belongs to: its own id, or the table it is seated at."""
    if place.kind != Seeker.Kind.SEEK:
        return None
    return int(place.pool.split(":", 1)[1]) if place.pool else place.id


def take_seek(seek_id: int, person: Person, now: datetime | None = None) -> Pairing | None:
    """Take an open seek in one click. A two-seat seek starts at once; at a table (3-5
    seats) the taker sits down, and the click that fills its last seat pairs everyone
    seated (None: seated, the table is not full yet). The seek's row is locked while a
    taker sits down, so two takers never share the last seat, and the table moves from
    waiting to paired by a conditional UPDATE that must move every seated row."""
    now = now or timezone.now()
    seek = Seeker.objects.filter(id=seek_id, kind=Seeker.Kind.SEEK, pool="").first()
    if seek is None or seek.status != Seeker.Status.WAITING:
        raise LobbyError("seek_gone")
    if seek.person == person.key:
        raise LobbyError("own_seek")
    _check_rated(person, seek.rated, now)
    if seek.flagged != is_flagged(person.user_id):
        raise LobbyError("seek_gone")  # quietly: a flagged account meets flagged ones only
    view = _rating_of(person, seek.game, seek.settings)
    with transaction.atomic():
        locked = Seeker.objects.select_for_update().filter(id=seek.id).first()
        if locked is None or locked.status != Seeker.Status.WAITING:
            raise LobbyError("seek_gone")
        seated = list(
            Seeker.objects.filter(pool=taker_pool(seek.id), status=Seeker.Status.WAITING)
            .order_by("id")
            .values_list("id", "person")
        )
        if any(who == person.key for _id, who in seated):
            return None  # already at this table
        row = Seeker.objects.create(
            kind=Seeker.Kind.SEEK,
            pool=taker_pool(seek.id),
            game=seek.game,
            settings=seek.settings,
            seats=seek.seats,
            rated=seek.rated,
            user_id=person.user_id,
            person=person.key,
            handle=person.handle,
            rating=view.rating if view else 1500.0,
            provisional=view.provisional if view else True,
            flagged=seek.flagged,
            joined_at=now,
            seen_at=now,
        )
        ids = [seek.id, *(i for i, _who in seated), row.id]
        if len(ids) < seek.seats:
            return None  # seated; the table waits for its other players
        group = Pairing.objects.create(pool=f"seek:{seek.id}", created_at=now)
        moved = Seeker.objects.filter(id__in=ids, status=Seeker.Status.WAITING).update(
            status=Seeker.Status.PAIRED, pairing=group, paired_at=now
        )
        if moved != len(ids):
            raise RuntimeError("a seat of this table was not waiting any more")
    return group


def taker_pool(seek_id: int) -> str:
    """The `pool` of the rows of the people seated at an open seek's table."""
    return f"taker:{seek_id}"


# --- waves -------------------------------------------------------------------------------


_MEMBER_FIELDS = (
    "id", "person", "rating", "misses", "rating_low", "rating_high", "last_opponents", "flagged"
)  # fmt: skip


def _member_of_row(row: tuple) -> pairing.Member:
    """`_member` from a values_list row of _MEMBER_FIELDS (more fields may follow)."""
    id_, person, rating_, misses, low, high, last_opponents, flagged = row[:8]
    return pairing.Member(
        id=id_,
        person=person,
        rating=rating_,
        misses=misses,
        rating_range=(low, high) if low is not None and high is not None else None,
        last_opponents=frozenset(last_opponents),
        flagged=flagged,
    )


def _member(seeker: Seeker) -> pairing.Member:
    return _member_of_row(tuple(getattr(seeker, field) for field in _MEMBER_FIELDS))


def run_wave(pool_key: str, now: datetime | None = None, force: bool = False) -> list[int]:
    """Run the pool's wave if it is due (or `force`), in one transaction; return the new
    pairings' ids (start them with `start_pairing` after this returns).

    Exactly once: the pool's row is locked FOR UPDATE SKIP LOCKED, so while one process
    runs a pool's wave another skips that pool rather than waiting to run it again; and the
    wave's seekers move from waiting to their pairings by one UPDATE that only matches rows
    still waiting, checked to have moved them all, so a seeker who left (or anything
    unforeseen) undoes the whole wave instead of pairing someone twice. SQLite, which has no
    row locks, runs one writing transaction at a time, and the checked UPDATE holds the same
    way."""
    now = now or timezone.now()
    pool = pools.get(pool_key)
    if pool is None:
        return []
    wave_policy = policy()
    with transaction.atomic():
        state = PoolState.objects.select_for_update(skip_locked=True).filter(pool=pool_key).first()
        if state is None:
            return []  # another process is running this pool's wave (or nobody ever waited)
        # Plain rows, not model instances: a wave reads every waiting seeker of the pool,
        # and building 2,000 instances cost more CPU than the matching.
        waiting = list(
            Seeker.objects.select_for_update(skip_locked=True)
            .filter(pool=pool_key, kind=Seeker.Kind.POOL, status=Seeker.Status.WAITING)
            .order_by("id")
            .values_list(*_MEMBER_FIELDS, "joined_at")
        )
        last = state.last_wave_at.timestamp() if state.last_wave_at else None
        if not force and not timing.wave_due(wave_policy, now.timestamp(), last, len(waiting)):
            return []
        groups = pairing.wave([_member_of_row(row) for row in waiting], pool.seats)
        joined = {row[0]: row[-1] for row in waiting}
        made = Pairing.objects.bulk_create(
            [Pairing(pool=pool_key, created_at=now) for _ in groups]
        )  # ids come back (PostgreSQL, SQLite 3.35+)
        owner = {
            m.id: group.id for group, members in zip(made, groups, strict=True) for m in members
        }
        if owner:
            # One UPDATE for the whole wave, matching only rows still waiting; all of them or
            # the wave is undone.
            moved = _move_to_pairings(owner, now)
            if moved != len(owner):
                raise RuntimeError("a seeker of this wave was not waiting any more")
        created = [group.id for group in made]
        seated = set(owner)
        waits = [(now - joined[i]).total_seconds() for i in owner]
        missed = [i for i in joined if i not in seated]
        if missed:
            Seeker.objects.filter(id__in=missed, status=Seeker.Status.WAITING).update(
                misses=F("misses") + 1
            )
        state.last_wave_at = now
        state.recent_waits = [*state.recent_waits, *waits][-RECENT_WAITS:]
        state.save(update_fields=["last_wave_at", "recent_waits"])
    return created


MOVE_CHUNK = 4000  # seekers a statement (SQLite takes at most 32,766 parameters)


def _move_to_pairings(owner: Mapping[int, int], now: datetime) -> int:
    """Move these seekers (id -> pairing id) from waiting to paired, matching only rows
    still waiting; return how many moved. One UPDATE ... FROM (VALUES ...) per chunk: the
    ORM's Case/When for 2,000 seekers took ~500 ms of CPU to build, this ~5 ms. VALUES'
    columns are column1, column2 on PostgreSQL and SQLite alike."""
    table = connection.ops.quote_name(Seeker._meta.db_table)
    when = connection.ops.adapt_datetimefield_value(now)
    items = list(owner.items())
    moved = 0
    with connection.cursor() as cursor:
        for start in range(0, len(items), MOVE_CHUNK):
            chunk = items[start : start + MOVE_CHUNK]
            rows = ", ".join(["(%s, %s)"] * len(chunk))
            cursor.execute(
                f"UPDATE {table} SET status = %s, paired_at = %s, pairing_id = v.column2 "
                f"FROM (VALUES {rows}) AS v WHERE {table}.id = v.column1 AND status = %s",
                [
                    Seeker.Status.PAIRED,
                    when,
                    *(x for pair in chunk for x in pair),
                    Seeker.Status.WAITING,
                ],
            )
            moved += cursor.rowcount
    return moved


def due_pools() -> list[str]:
    """Pools with two or more waiting (the ticker asks each whether its wave is due)."""
    from django.db.models import Count

    rows = (
        Seeker.objects.filter(kind=Seeker.Kind.POOL, status=Seeker.Status.WAITING)
        .values("pool")
        .annotate(n=Count("id"))
        .filter(n__gte=2)
    )
    return sorted(row["pool"] for row in rows)


# --- starting a pairing's match ----------------------------------------------------------


@dataclass(frozen=True)
class Started:
    match_id: Any
    tokens: dict[str, str]  # person -> seat token (shown once to that person, never stored)


def start_pairing(pairing_id: int) -> Started | None:
    """Create the pairing's match, once: the pairing's row is locked and its match id set
    in the same transaction as the match is created, so a second caller (another process,
    the sweep) finds it started and does nothing. Returns the tokens only to the caller
    that created the match; None when there was nothing to do."""
    from matches.errors import MatchError
    from matches.services import SeatSpec, create_match_for

    with transaction.atomic():
        group = Pairing.objects.select_for_update().filter(id=pairing_id).first()
        if group is None or group.match_id is not None or group.failed:
            return None
        members = list(group.seekers.order_by("id"))
        if not members:
            return None
        pool = pools.get(group.pool)
        teams = pool.teams if pool is not None else _seek_teams(members[0], len(members))
        if teams:  # seated as the two most even teams
            order = pairing.balanced_teams([m.rating for m in members], teams)
            members = [members[i] for i in order]
        first = members[0]
        seats = [SeatSpec(user_id=m.user_id) for m in members]
        try:
            match, tokens = create_match_for(
                first.game, first.settings, "friend", seats, rated=first.rated
            )
        except MatchError:
            # The match layer refused (a user deleted meanwhile, say): the seekers wait again.
            group.failed = True
            group.save(update_fields=["failed"])
            Seeker.objects.filter(pairing=group, kind=Seeker.Kind.POOL).update(
                status=Seeker.Status.WAITING, pairing=None, paired_at=None
            )
            return None
        group.match_id = match.id
        group.save(update_fields=["match_id"])
    return Started(match.id, {members[i].person: token for i, token in tokens.items()})


def _seek_teams(owner: Seeker, seats: int) -> tuple[int, ...]:
    """An open seek's genpei table of two equal teams is seated as the two most even teams,
    as its quick pool's is; any other seek in the order people sat down."""
    sizes = owner.settings.get("teams") if owner.settings.get("mode") == "genpei" else None
    even = isinstance(sizes, list | tuple) and len(sizes) == 2 and sizes[0] == sizes[1]
    return tuple(sizes) if even and sum(sizes) == seats else ()


def unstarted_pairings(older_than: timedelta = timedelta(seconds=5)) -> list[int]:
    """Pairings whose match was never created (the process that paired them died between
    its commit and the match): the sweep starts them."""
    cutoff = timezone.now() - older_than
    return list(
        Pairing.objects.filter(match_id=None, failed=False, created_at__lt=cutoff).values_list(
            "id", flat=True
        )
    )


# --- the socket's own chores -------------------------------------------------------------


def seen_many(people: list[str], now: datetime | None = None) -> int:
    """These people's sockets are alive (one process's sockets, in one UPDATE)."""
    return Seeker.objects.filter(person__in=people, status=Seeker.Status.WAITING).update(
        seen_at=now or timezone.now()
    )


def places(person: str) -> list[Seeker]:
    return list(Seeker.objects.filter(person=person, status=Seeker.Status.WAITING).order_by("id"))


# --- nobody waits alone ------------------------------------------------------------------


def cpu_level_for(game_slug: str, strength: float) -> str | None:
    """The CPU level whose settled rating is nearest this rating, where the ratings bench
    measured the levels apart (karuta's five levels, Bakudan's three personalities:
    lobby.rating.cpu_settled); Bozu's levels play alike, so its default level."""
    import gamekit

    settled = {
        key: value
        for key, value in rating.cpu_settled(game_slug).items()
        if key in {level.key for level in gamekit.registry.get(game_slug).cpu_levels}
    }
    if settled:
        return min(settled, key=lambda level: (abs(settled[level] - strength), level))
    levels = gamekit.registry.get(game_slug).cpu_levels
    return levels[0].key if levels else None  # the game's default level


def cpu_match(pool_key: str, person: Person) -> tuple[Any, str]:
    """A match against the CPU at the person's strength, with the pool's settings (never
    rated: a CPU seat makes a game unrated). Returns (match, the person's seat token)."""
    from matches.services import SeatSpec, create_match_for

    pool = pools.get(pool_key)
    if pool is None:
        raise LobbyError("no_such_pool")
    view = _rating_of(person, pool.game, pool.settings)
    level = cpu_level_for(pool.game, view.rating if view else 1500.0)
    seats = [SeatSpec(user_id=person.user_id)] + [
        SeatSpec(cpu_level=level) for _ in range(pool.seats - 1)
    ]
    match, tokens = create_match_for(pool.game, dict(pool.settings), "cpu", seats)
    return match, tokens[0]
