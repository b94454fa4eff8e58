"""Rooms: create, join, start, invite, resign, leave, play again. Each is one transaction
that locks the match row (docs/matches.md, "One change = one transaction").
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

import gamekit
from gamekit import Game, LeavePolicy, Outcome, SeatSpec, Termination
from matches import cpu, timed
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


def create_match(
    game_slug: str, game_settings: Mapping[str, Any], mode: str, cpu_level: str | None = None
) -> tuple[Match, str]:
    """Create a match and its seats; return it with the creator's seat token (shown once)."""
    game = gamekit.registry.get(game_slug)
    if mode not in {m.value for m in game.modes}:
        raise MatchError("not_allowed", f"mode {mode}")
    levels = [level.key for level in game.cpu_levels]
    level = cpu_level or default_level(game)
    if levels and level not in levels:
        raise MatchError("not_allowed", "cpu level")
    count = game.player_count(game_settings)
    if not game.min_players <= count <= game.max_players:
        raise MatchError("not_allowed", "player count")
    if count > len(gamekit.SEAT_COLOURS):
        raise MatchError("not_allowed", "too many seats")
    if mode == Match.Mode.SOLO and count != 1:
        raise MatchError("not_allowed", "solo is one seat")
    if mode == Match.Mode.FRIEND and count < 2:
        raise MatchError("not_allowed", "a friend room has two seats or more")
    token = new_token()
    digest = hash_token(token)
    now = timezone.now()
    match = Match(
        game=game.slug,
        settings=dict(game_settings),
        seed=new_seed(game, game_settings),
        mode=mode,
        invite_code=secrets.token_urlsafe(12) if mode == Match.Mode.FRIEND else None,
    )
    seats = [
        Seat(
            match=match,
            index=index,
            colour=gamekit.SEAT_COLOURS[index],
            kind=Seat.Kind.HUMAN
            if index == 0 or mode in (Match.Mode.HOTSEAT, Match.Mode.FRIEND)
            else Seat.Kind.CPU,
            cpu_level=level,
            # Hot-seat: one token holds every seat of the device.
            token_hash=digest if index == 0 or mode == Match.Mode.HOTSEAT else "",
            is_owner=index == 0,
            disconnected_since=now,
        )
        for index in range(count)
    ]
    state = None
    if mode != Match.Mode.FRIEND:  # dealt and the CPU planned before the transaction
        state = first_state(match, game, seats)
        started = copy.copy(match)
        started.seq, started.status = match.seq + 1, Match.Status.PLAYING  # after `start`
        cpu.prepare(game, started, state, seats, level)
    with transaction.atomic():
        match.save(force_insert=True)
        Seat.objects.bulk_create(seats)
        if state is not None:
            start_match(match, game, seats, now, state)
        after_commit(match)
    return match, token


def _specs(seats: list[Seat]) -> list[SeatSpec]:
    return [
        SeatSpec(index=s.index, colour=s.colour, is_cpu=s.is_cpu, cpu_level=s.cpu_level or None)
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
    append_row(
        match,
        kind="room",
        seat=None,
        action={"type": "start", "seats": [spec.__dict__ for spec in specs]},
        events=[{"type": "started"}],
        actor=Action.Actor.SYSTEM,
    )
    finish_if_over(match, game, state)
    timed.begin_state(match, game, now)  # a timed game's first state begins now
    save_away(update_turns(match, game, state, seats, (), now))
    match.state = game.dump_state(state)
    match.save()


def join(invite_code: str) -> tuple[Match, int, str]:
    """Take the next empty seat of a friend room. Two joins at once never share a seat."""
    if not isinstance(invite_code, str) or not invite_code:
        raise MatchError("bad_invite")
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
        token = new_token()
        seat.token_hash = hash_token(token)
        seat.disconnected_since = timezone.now()
        seat.save(update_fields=["token_hash", "disconnected_since"])
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


def start_with_cpu(match_id: Any, held: Iterable[int]) -> int:
    """The room's creator lets CPUs take the empty seats and starts at once."""
    with transaction.atomic():
        match = lock_match(match_id)
        if match.status != Match.Status.WAITING:
            raise MatchError("not_waiting")
        seats = seats_of(match)
        if not any(s.is_owner and s.index in set(still_held(seats, held)) for s in seats):
            raise MatchError("not_owner")
        for seat in seats:
            if not seat.is_taken:
                seat.kind = Seat.Kind.CPU
                seat.save(update_fields=["kind"])
        start_match(match, get_game(match), seats, timezone.now())
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
            match.status = Match.Status.FINISHED
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


def rematch(match_id: Any, token: str | None) -> tuple[Match, str | None]:
    """Play again: one next match however often it is asked for (idempotent).

    A player of this match gets the same seats in the next one (a fresh token);
    anyone else (a spectator) is just shown the way there.
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
    return _claim(nxt_id, held)


def _claim(match_id: Any, indices: list[int]) -> tuple[Match, str | None]:
    """Give a returning player their seats in the next match (if still free)."""
    token = new_token()
    with transaction.atomic():
        match = lock_match(match_id)
        seats = seats_of(match)
        mine = [s for s in seats if s.index in indices and not s.is_taken]
        if not mine or match.status != Match.Status.WAITING:
            return match, None
        for seat in mine:
            seat.token_hash = hash_token(token)
            seat.save(update_fields=["token_hash"])
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
