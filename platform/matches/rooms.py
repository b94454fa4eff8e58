"""Rooms: create, join, start, invite, resign, leave, play again. Each is one transaction
that locks the match row (docs/matches.md, "One change = one transaction").
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import gamekit
from gamekit import Game, GameError, LeavePolicy, Outcome, Termination
from matches import cpu, signals, timed
from matches.broadcast import after_commit
from matches.clock import default_level, update_turns
from matches.errors import MatchError
from matches.log import append_row, get_game, lock_match, save_away, seats_of
from matches.models import Action, Match, Seat
from matches.moves import choose_seat, finish_if_over, put_out
from matches.tokens import hash_token, new_token, seats_for_token, still_held


def new_seed(game: Game, game_settings: Mapping[str, Any]) -> int:
    """The deal's seed: the one the settings fix (a game number), or a fresh random one."""
    fixed = game.seed_for(game_settings)
    return secrets.randbits(game.seed_bits) if fixed is None else int(fixed)


@dataclass(frozen=True)
class SeatSpec:
    """A seat of a match made by another app (`create_match_for`): a person's (`user_id`:
    signed in, None: a guest) or, with `cpu_level`, the CPU's."""

    user_id: int | None = None
    cpu_level: str | None = None

    @property
    def is_cpu(self) -> bool:
        return self.cpu_level is not None


def _checked(game_slug: str, game_settings: Any, mode: str) -> tuple[Game, int]:
    """The game and its seat count for these settings and mode, or MatchError."""
    try:
        game = gamekit.registry.get(game_slug)
    except gamekit.NotRegistered:
        raise MatchError("not_allowed", "game") from None
    if not isinstance(game_settings, Mapping):
        raise MatchError("not_allowed", "settings")
    if mode not in {m.value for m in game.modes}:
        raise MatchError("not_allowed", f"mode {mode}")
    try:
        count = game.player_count(game_settings)
    except (TypeError, ValueError, KeyError):
        raise MatchError("not_allowed", "settings") from None
    if not game.min_players <= count <= game.max_players:
        raise MatchError("not_allowed", "player count")
    if count > len(gamekit.SEAT_COLOURS):
        raise MatchError("not_allowed", "too many seats")
    if mode == Match.Mode.SOLO and count != 1:
        raise MatchError("not_allowed", "solo is one seat")
    if mode == Match.Mode.FRIEND and count < 2:
        raise MatchError("not_allowed", "a friend room has two seats or more")
    return game, count


def _seat_levels(game: Game, game_settings: Mapping[str, Any], count: int) -> list[str | None]:
    """The CPU level chosen for each seat in the settings (`Game.seat_levels`), else None."""
    levels = [level.key for level in game.cpu_levels]
    chosen = list(game.seat_levels(game_settings) or ())
    chosen += [None] * (count - len(chosen))
    if levels and any(c is not None and c not in levels for c in chosen):
        raise MatchError("not_allowed", "cpu level")
    return chosen


def _checked_level(game: Game, level: str | None) -> str:
    levels = [level.key for level in game.cpu_levels]
    level = level or default_level(game)
    if levels and level not in levels:
        raise MatchError("not_allowed", "cpu level")
    return level


def create_match(
    game_slug: str,
    game_settings: Mapping[str, Any],
    mode: str,
    cpu_level: str | None = None,
    *,
    user_id: int | None = None,
    rated: bool = False,
) -> tuple[Match, str]:
    """Create a match and its seats; return it with the creator's seat token (shown once).
    `user_id`: the signed-in creator (their seat records it); `rated`: a friend room meant
    to count toward ratings (it stays rated only if every seat is a signed-in person)."""
    game, count = _checked(game_slug, game_settings, mode)
    level = _checked_level(game, cpu_level)
    if rated and user_id is None:
        raise MatchError("sign_in_to_rate")
    if rated and mode != Match.Mode.FRIEND:
        raise MatchError("not_allowed", "only a friend room is rated")
    chosen = _seat_levels(game, game_settings, count)
    token = new_token()
    digest = hash_token(token)
    now = timezone.now()
    match = _new_match(game, game_settings, mode, rated)
    seats = [
        Seat(
            match=match,
            index=index,
            colour=gamekit.SEAT_COLOURS[index],
            kind=Seat.Kind.HUMAN
            if index == 0 or mode in (Match.Mode.HOTSEAT, Match.Mode.FRIEND)
            else Seat.Kind.CPU,
            cpu_level=chosen[index] or level,
            # Hot-seat: one token holds every seat of the device.
            token_hash=digest if index == 0 or mode == Match.Mode.HOTSEAT else "",
            is_owner=index == 0,
            # The creator's own seat (on a shared device, the others are guests).
            user_id=user_id if index == 0 else None,
            disconnected_since=now,
        )
        for index in range(count)
    ]
    _save_new(match, game, seats, level, now, start=mode != Match.Mode.FRIEND)
    return match, token


def create_match_for(
    game_slug: str,
    game_settings: Mapping[str, Any],
    mode: str,
    seats: list[SeatSpec],
    *,
    rated: bool = False,
) -> tuple[Match, dict[int, str]]:
    """A match with these seats, started at once (for the lobby and events): returns it with
    each human seat's token (seat index -> token, shown once to that person). A rated match
    stays rated only if every seat is a signed-in person. MatchError on a bad game, mode,
    settings, seat count, CPU level or user."""
    game, count = _checked(game_slug, game_settings, mode)
    if not isinstance(seats, (list, tuple)) or len(seats) != count:
        raise MatchError("not_allowed", "seat count")
    if not all(isinstance(spec, SeatSpec) for spec in seats):
        raise MatchError("not_allowed", "seat spec")
    levels = [_checked_level(game, spec.cpu_level) if spec.is_cpu else None for spec in seats]
    people = {spec.user_id for spec in seats if spec.user_id is not None and not spec.is_cpu}
    if any(spec.is_cpu and spec.user_id is not None for spec in seats):
        raise MatchError("not_allowed", "a CPU seat has no user")
    if len(people) != len([s for s in seats if s.user_id is not None]):
        raise MatchError("not_allowed", "one seat per person")
    if people and get_user_model().objects.filter(pk__in=people).count() != len(people):
        raise MatchError("not_allowed", "no such user")
    now = timezone.now()
    match = _new_match(game, game_settings, mode, rated, invite=False)  # every seat is set
    tokens = {i: new_token() for i, spec in enumerate(seats) if not spec.is_cpu}
    rows = [
        Seat(
            match=match,
            index=index,
            colour=gamekit.SEAT_COLOURS[index],
            kind=Seat.Kind.CPU if spec.is_cpu else Seat.Kind.HUMAN,
            cpu_level=levels[index] or default_level(game),
            token_hash=hash_token(tokens[index]) if index in tokens else "",
            is_owner=index == min(tokens, default=0),
            user_id=spec.user_id,
            disconnected_since=now,
        )
        for index, spec in enumerate(seats)
    ]
    _save_new(match, game, rows, default_level(game), now, start=True)
    return match, tokens


def _new_match(
    game: Game, game_settings: Mapping[str, Any], mode: str, rated: bool, invite: bool = True
) -> Match:
    try:
        seed = new_seed(game, game_settings)
    except (TypeError, ValueError, KeyError):
        raise MatchError("not_allowed", "settings") from None
    return Match(
        game=game.slug,
        settings=dict(game_settings),
        seed=seed,
        mode=mode,
        rated=bool(rated),
        invite_code=secrets.token_urlsafe(12) if invite and mode == Match.Mode.FRIEND else None,
    )


def _save_new(
    match: Match, game: Game, seats: list[Seat], level: str, now: datetime, *, start: bool
) -> None:
    """Save a new match with its seats; `start`: dealt (and the CPU planned) before the
    transaction, and started in it."""
    state = None
    if start:
        try:
            state = first_state(match, game, seats)
        except Exception:  # the engine refuses these settings
            raise MatchError("not_allowed", "settings") from None
        started = copy.copy(match)
        started.seq, started.status = match.seq + 1, Match.Status.PLAYING  # after `start`
        cpu.prepare(game, started, state, seats, level)
    with transaction.atomic():
        match.save(force_insert=True)
        Seat.objects.bulk_create(seats)
        if state is not None:
            start_match(match, game, seats, now, state)
        after_commit(match)


def _specs(seats: list[Seat]) -> list[gamekit.SeatSpec]:
    return [
        gamekit.SeatSpec(
            index=s.index, colour=s.colour, is_cpu=s.is_cpu, cpu_level=s.cpu_level or None
        )
        for s in seats
    ]


def first_state(match: Match, game: Game, seats: list[Seat]) -> Any:
    """The deal: pure, from the seed (so it may be made before the transaction)."""
    return game.new_state(match.settings, _specs(seats), match.seed)


def start_match(
    match: Match, game: Game, seats: list[Seat], now: datetime, state: Any = None
) -> None:
    specs = _specs(seats)
    if state is None:
        state = game.new_state(match.settings, specs, match.seed)
    match.status = Match.Status.PLAYING
    # Rated only between signed-in people: a CPU or a guest at the start makes it unrated.
    if match.rated and not all(not s.is_cpu and s.user_id is not None for s in seats):
        match.rated = False
    append_row(
        match,
        kind="room",
        seat=None,
        action={"type": "start", "seats": [spec.__dict__ for spec in specs]},
        events=[{"type": "started"}],
        actor=Action.Actor.SYSTEM,
    )
    finish_if_over(match, game, state, now)
    timed.begin_state(match, game, now)  # a timed game's first state begins now
    save_away(update_turns(match, game, state, seats, (), now))
    match.state = game.dump_state(state)
    match.save()


def join(
    invite_code: str, user_id: int | None = None, group: int | None = None
) -> tuple[Match, int, str]:
    """Take the next empty seat of a friend room (`user_id`: the signed-in person taking
    it; `group`: of that seat group — a team — when the game offers groups,
    `Game.seat_groups`). Two joins at once never share a seat."""
    if not isinstance(invite_code, str) or not invite_code:
        raise MatchError("bad_invite")
    if group is not None and (not isinstance(group, int) or isinstance(group, bool)):
        raise MatchError("bad_message")
    with transaction.atomic():
        found = Match.objects.filter(invite_code=invite_code).values_list("pk", flat=True).first()
        if found is None:
            raise MatchError("bad_invite")
        match = lock_match(found)
        if match.invite_code != invite_code:  # rotated while we waited for the lock
            raise MatchError("bad_invite")
        if match.status != Match.Status.WAITING:
            raise MatchError("room_full")
        seats = seats_of(match)
        empty = [s for s in seats if not s.is_taken]
        if not empty:
            raise MatchError("room_full")
        seat = empty[0]
        if group is not None:
            groups = get_game(match).seat_groups(match.settings)
            if not 0 <= group < len(groups):
                raise MatchError("bad_message")
            free = [s for s in empty if s.index in groups[group].seats]
            if not free:
                raise MatchError("group_full")
            seat = free[0]
        token = new_token()
        seat.token_hash = hash_token(token)
        seat.disconnected_since = timezone.now()
        seat.user_id = user_id
        seat.save(update_fields=["token_hash", "disconnected_since", "user"])
        append_row(
            match,
            kind="room",
            seat=seat.index,
            action={"type": "join"},
            events=[{"type": "joined", "seat": seat.index}],
            actor=Action.Actor.HUMAN,
        )
        if len(empty) == 1:  # the room is full: play
            start_match(match, get_game(match), seats, timezone.now())
        else:
            match.save()
        after_commit(match)
        return match, seat.index, token


def _waiting_room_of_its_creator(match_id: Any, held: Iterable[int]) -> tuple[Match, list]:
    """The locked match and its seats, for what only the room's creator may do before the
    start: refused once the room has started, or when no held seat is the creator's."""
    match = lock_match(match_id)
    if match.status != Match.Status.WAITING:
        raise MatchError("not_waiting")
    seats = seats_of(match)
    if not any(s.is_owner and s.index in set(still_held(seats, held)) for s in seats):
        raise MatchError("not_owner")
    return match, seats


def start_with_cpu(match_id: Any, held: Iterable[int]) -> int:
    """The room's creator lets CPUs take the empty seats and starts at once."""
    with transaction.atomic():
        match, seats = _waiting_room_of_its_creator(match_id, held)
        for seat in seats:
            if not seat.is_taken:
                seat.kind = Seat.Kind.CPU
                seat.save(update_fields=["kind"])
        start_match(match, get_game(match), seats, timezone.now())
        after_commit(match)
        return match.seq


def swap_seats(match_id: Any, held: Iterable[int], first: int, second: int) -> int:
    """The room's creator exchanges two seats of different groups (teams) before the start:
    each seat, with whoever holds it, then plays in the other's group (`Game.seat_groups`,
    `Game.swap_group_seats`; the groups keep their sizes). The seats' people, tokens and
    colours stay where they are: only the match's settings say the new grouping."""
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in (first, second)):
        raise MatchError("bad_message")
    with transaction.atomic():
        match, _seats = _waiting_room_of_its_creator(match_id, held)
        game = get_game(match)
        groups = [set(group.seats) for group in game.seat_groups(match.settings)]
        group_of = {index: n for n, group in enumerate(groups) for index in group}
        if first not in group_of or second not in group_of:
            raise MatchError("bad_message")  # no such seat, or a game without groups
        if group_of[first] == group_of[second]:
            raise MatchError("not_allowed", "the same group")
        try:
            match.settings = game.swap_group_seats(match.settings, first, second)
        except GameError:
            raise MatchError("not_allowed", "seat groups") from None
        append_row(
            match,
            kind="room",
            seat=None,
            action={"type": "swap", "seats": [first, second]},
            events=[{"type": "seats_swapped", "seats": [first, second]}],
            actor=Action.Actor.HUMAN,
        )
        match.save()
        after_commit(match)
        return match.seq


def new_invite(match_id: Any, held: Iterable[int]) -> str:
    """Invite again with a new URL: the old one stops working."""
    held = list(held)
    if not held:
        raise MatchError("spectator")
    with transaction.atomic():
        match = lock_match(match_id)
        if match.mode != Match.Mode.FRIEND:
            raise MatchError("not_allowed")
        if match.status == Match.Status.FINISHED:
            raise MatchError("finished")  # nobody can join a finished match
        if not still_held(seats_of(match), held):
            raise MatchError("spectator")
        match.invite_code = secrets.token_urlsafe(12)
        append_row(
            match,
            kind="room",
            seat=None,
            action={"type": "invite"},
            events=[{"type": "invite_changed"}],
            actor=Action.Actor.HUMAN,
        )
        match.save()
        after_commit(match)
        return match.invite_code


def resign(match_id: Any, held: Iterable[int], seat: int | None = None) -> int:
    """Two players, or one against CPUs only: resigning ends the match. In a game whose
    leavers are out (`LeavePolicy.OUT`) the player is out, at any table size, and the
    others play on."""
    return _depart(match_id, held, seat, "resign")


def leave(match_id: Any, held: Iterable[int], seat: int | None = None) -> int:
    """Three or more players: the CPU takes the leaver's seat for the rest of the match. In
    a game whose leavers are out (`LeavePolicy.OUT`) the leaver is out, at any table size."""
    return _depart(match_id, held, seat, "leave")


def _depart(match_id: Any, held: Iterable[int], seat: int | None, how: str) -> int:
    held = list(held)
    now = timezone.now()
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.PLAYING:
            raise MatchError("finished" if match.status == Match.Status.FINISHED else "not_started")
        seats = seats_of(match)
        held = still_held(seats, held)  # a seat already handed to the CPU cannot leave again
        game = get_game(match)
        if game.on_leave == LeavePolicy.OUT:
            index = choose_seat(held, seat, held)
            put_out(match, game, game.load_state(match.state), seats, index, how, now)
        elif how == "resign":
            index = choose_seat(held, seat, held)
            # Resigning ends the match when nobody else would play on without you: two
            # seats, or every other seat the CPU's (against CPUs, solo practice: "quit").
            others = [s for s in seats if s.index != index]
            if len(seats) != 2 and any(not s.is_cpu for s in others):
                raise MatchError("not_allowed")
            signals.finish(match, now)
            places = tuple(2 if seat.index == index else 1 for seat in seats) if others else ()
            match.outcome = Outcome(places, None, Termination.RESIGNED, index).to_json()
            append_row(
                match,
                kind="room",
                seat=index,
                action={"type": "resign"},
                events=[{"type": "resigned", "seat": index}],
                actor=Action.Actor.HUMAN,
            )
            match.due_at = None
        else:
            if len(seats) < 3:
                raise MatchError("not_allowed")
            index = choose_seat(held, seat, held)
            _hand_to_cpu(match, game, seats, index, now)
        match.save()
        after_commit(match)
        return match.seq


def _hand_to_cpu(match: Match, game: Game, seats: list[Seat], index: int, now: datetime) -> None:
    """`LeavePolicy.CPU`: the leaver's seat is the CPU's for the rest of the match."""
    leaver = seats[index]
    leaver.kind = Seat.Kind.CPU
    leaver.token_hash = ""
    leaver.cpu_level = leaver.cpu_level or default_level(game)
    leaver.save(update_fields=["kind", "token_hash", "cpu_level"])
    append_row(
        match,
        kind="room",
        seat=index,
        action={"type": "leave"},
        events=[{"type": "left", "seat": index}],
        actor=Action.Actor.HUMAN,
    )
    state = game.load_state(match.state)
    to_act = game.to_act(state)
    save_away(update_turns(match, game, state, seats, to_act, now))


def rematch(
    match_id: Any, token: str | None, user_id: int | None = None
) -> tuple[Match, str | None]:
    """Play again: one next match however often it is asked for (idempotent).

    A player of this match gets the same seats in the next one (a fresh token; `user_id`:
    the signed-in person asking, recorded on their seat); anyone else (a spectator) is just
    shown the way there. A rated room's next match is meant to be rated too.
    """
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.FINISHED:
            raise MatchError("not_allowed")
        old_seats = seats_of(match)
        held = still_held(old_seats, seats_for_token(old_seats, token))
        if match.next_match_id is None and not held:
            raise MatchError("spectator")  # only the players start the next match
        if match.next_match_id is None:
            game = get_game(match)
            next_settings = game.rematch_settings(match.settings)
            nxt = Match.objects.create(
                game=match.game,
                settings=next_settings,
                seed=new_seed(game, next_settings),
                mode=match.mode,
                rated=match.rated,
                invite_code=secrets.token_urlsafe(12) if match.mode == Match.Mode.FRIEND else None,
            )
            Seat.objects.bulk_create(
                Seat(
                    match=nxt,
                    index=s.index,
                    colour=s.colour,
                    kind=s.kind,
                    cpu_level=s.cpu_level,
                    is_owner=s.is_owner,
                    disconnected_since=timezone.now(),
                )
                for s in old_seats
            )
            match.next_match = nxt
            append_row(
                match,
                kind="room",
                seat=None,
                action={"type": "rematch"},
                events=[{"type": "rematch"}],
                actor=Action.Actor.HUMAN,
            )
            match.save()
            after_commit(match)
        nxt_id = match.next_match_id
    if not held:
        return Match.objects.get(pk=nxt_id), None
    return _claim(nxt_id, held, user_id)


def _claim(
    match_id: Any, indices: list[int], user_id: int | None = None
) -> tuple[Match, str | None]:
    """Give a returning player their seats in the next match (if still free); the signed-in
    person's own is the first (on a shared device the others are guests, as at creation)."""
    token = new_token()
    with transaction.atomic():
        match = lock_match(match_id)
        seats = seats_of(match)
        mine = [s for s in seats if s.index in indices and not s.is_taken]
        if not mine or match.status != Match.Status.WAITING:
            return match, None
        for seat in mine:
            seat.token_hash = hash_token(token)
            seat.user_id = user_id if seat is mine[0] else None
            seat.save(update_fields=["token_hash", "user"])
        append_row(
            match,
            kind="room",
            seat=mine[0].index,
            action={"type": "join"},
            events=[{"type": "joined", "seat": s.index} for s in mine],
            actor=Action.Actor.HUMAN,
        )
        if all(s.is_taken for s in seats):
            start_match(match, get_game(match), seats, timezone.now())
        else:
            match.save()
        after_commit(match)
        return match, token
