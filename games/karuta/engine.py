"""The karuta engine: competitive (1 v 1), chirashi (2–4 players), solo practice and genpei
(源平戦, two teams of 1–4 seats). Pure Python.

No Django, no clock, no global random. A state is a plain JSON-able dict; all
randomness comes from `seed` and a counter kept in it, so the same (settings,
seats, seed, actions) always reach the same state. Times are milliseconds on the
reading's own clock (see `reading.py`: t = 0 is the moment the first kana of the
poem's upper verse is shown), claimed by clients on their corrected clock and checked
against the platform's arrival stamps, which the actions carry (`judge.py`).

Phases and actions (what the play pages and the match server build on)
-------------------------------------------------------------------------
``memorise`` (when settings.memorise_seconds > 0, or with settings.ready_first and a person seated)
    Every seat is in ``to_act`` until it sends ``{"type": "ready"}``. The engine
    has no clock: the page counts memorise_seconds down and sends "ready" when
    it runs out (or when the player skips), once it can play the first reading (with
    ready_first and no memorisation time, that is all the phase waits for). CPUs are ready
    at once. A seat still not ready READY_GRACE_MS after the time ran out (READY_COLD_MS
    with no memorisation time; by the actions' stamps) is made ready by the server
    (``ready_deadline``, the game's deadline). With ready_first the first reading's t = 0
    lies at least FIRST_LEAD_MS after its state begins.
    Competitive players may send ``{"type": "arrange", "rows": [[...], [...], [...]]}``
    (their own cards, rows upper/middle/lower, each row left → right as the
    owner sees it; the same cards, just moved).

``reading``
    One poem is being read. ``view()["reading"]`` holds its number, the poem,
    the schedule (preamble with negative times, each upper-verse kana with the
    time it is shown, the lower verse in chirashi/solo), the current dynamic
    kimariji length, ``decided`` (when its deciding kana is shown) and
    ``close`` (the last moment a touch counts). Every seat in
    ``reading.active`` must finish the reading, then the engine resolves it:

    * ``{"type": "touch", "card": N, "t": ms, "reading": R}`` — touch card N (it must lie on
      the field) at t, 0 <= t <= close, t never smaller than the seat's
      previous touch in this reading. Touching the read card finishes the
      seat's reading. In competitive play a touch on a wrong card does not:
      the player may go on (touching the read card after a wrong touch on its
      own side is the "send and penalty cancel" case). In chirashi a wrong
      touch is otetsuki and finishes the seat's reading; in solo practice
      wrong touches are recorded and the player goes on.
    * ``{"type": "pass", "reading": R}`` — no (further) touch this reading. A page sends it
      when its clock passes ``close``, or as soon as it passes the time of
      another seat's touch on the read card (touches after the read card was
      taken never count, so nothing more can happen).
    * ``reading`` (optional, sent by every client of ours) binds a touch or a pass to
      the reading it is meant for: one that arrives once that reading is over is refused
      as ``stale`` (logged; a pass quietly), never counted in the next one. A touch that
      arrives before its reading's t = 0 is impossible (``future``, judge.py) with or
      without it.
    * ``{"type": "arrange", "rows": [...], "t": ms}`` (competitive) — only
      before the upper verse starts (t < 0) and before the seat touched.

    ``view()`` is the whole reading (the server's: the CPU plans from it); what a
    client is sent is that view *released* at a moment (``games.karuta.release``):
    each kana a fixed lead before its time, the poem once its deciding kana is, other
    seats' touches once their time is reached. Touch times are claims on the reading's
    clock, checked against the platform's arrival stamps (``games.karuta.judge``:
    impossible touches are refused, a contested card is judged by corrected times).
    The server plays a CPU's touch when its time comes, so nothing sent depends on a
    CPU's plan before then. CPU policies ignore other seats' touches.

    Resolution (competitive, docs/requirements.md §3): the earliest touch on the read card
    takes it; at equal times the player on whose side it lies takes it.
    Touches made after that moment never count. Otetsuki = a counted touch on
    the side where the read card does not lie; when a dead card (空札) is read,
    every counted touch is otetsuki and touching both sides counts twice.
    Whoever takes gets one card lighter (their own card leaves, or they send
    one); whoever commits otetsuki gets one heavier (the opponent sends one);
    so dabu (your own card read, you commit otetsuki and the opponent takes it: you
    receive 2) and the take-plus-otetsuki cancel fall out of the sum. The result's
    "dabu" flag names that cause only; touching both sides on a dead card also costs 2
    but is a double otetsuki.
    Both committing otetsuki (tomo-otetsu) cancels every penalty. A live card
    nobody touched by ``close`` is taken off by the owner of its side (no send).
    Sends are capped by what the sender has: a player who empties their side
    wins, even if a send was owed. Chirashi: the earliest touch on the read card
    takes it (exact ties are drawn by the seeded RNG); each otetsuki is punished
    per settings.otetsuki_penalty — "sit_out" (the seat is not active in the
    next reading) or "return_card" (its last taken card goes back to the field
    and into the reading order). Solo: the take time from t = 0 and from the
    deciding kana are recorded with every wrong touch.

``send`` (competitive)
    ``{"type": "send", "card": N}`` by ``send.from`` (one of its own cards),
    repeated ``send.remaining`` times. Its event names the receiver "receiver", never
    "to": a top-level "to" is the match server's list of seats an event is private to.
    A received card goes to the receiver's row with the fewest cards (middle, then
    lower, then upper on ties); the receiver may rearrange before the next upper verse.

``genpei``
    Competitive play between two teams, on the same code: a *side* is a seat's in
    competitive and a team's in genpei (``state["teams"][seat]``; the first
    ``settings.teams[0]`` seats are team 0 unless ``settings.seat_teams`` gives each
    seat's team, as a friend room's creator arranged them). Every card of the pool lies on
    a side, 50 a side of 100 (of a poem subset half is laid out, the rest read as dead cards); any
    member may touch either side and arrange the team's side. A side's otetsuki is the sum
    of its members' (``otetsuki_rule`` "any": any wrong touch is one as well); tomo-otetsu,
    dabu, cancelling and capped sends are said of sides. A tie on the read card goes to a
    seat of the side it lies on. The cards a side sends are chosen by ``send.by``: the taker
    when its team sends, else the sending team's first seat. The first side empty wins;
    ``result()`` names the team, per-seat places and the margin (cards left on the other side).

``over``
    Nothing to act on; ``result()`` gives places and scores.

Every refused action raises a `gamekit` error and leaves the state unchanged.
"""

from __future__ import annotations

import marshal
import random
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from gamekit.base import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from games.karuta import judge, reading
from games.karuta.options import (  # re-exported: the engine is the karuta API
    ALL_POEMS,
    LEVEL_KEYS,
    MODES,
    SIDED_MODES,
    InvalidSettingsError,
    is_int,
    lower_reads,
    normalize_settings,
    pool_of,
    reading_mode,
    seat_teams,
)
from poems import catalogue
from poems.kimariji import dynamic_kimariji, static_kimariji

State = dict[str, Any]
Event = dict[str, Any]

VERSION = 1
RECEIVE_ROW_ORDER = (1, 2, 0)  # where a received card goes when rows tie
# How long after the memorisation time the server waits for a seat's "ready" before it plays
# that "ready" itself (`ready_deadline`, the game's deadline): the page counts the time from
# when it first shows the phase and says "ready" when it runs out, so this covers a page that
# loaded late; a "ready" that never comes (a page stopped, an act lost) holds nobody for ever.
READY_GRACE_MS = 15_000
# With settings.ready_first and no memorisation time, the phase only waits for the pages to
# be able to play the first reading (a cold page: load, connect, decode the opening clips;
# the page gives up waiting after 4 s of its own): the server's cap from the phase's start.
READY_COLD_MS = 10_000
# A seat that owes cards (the send phase) and has not chosen one within this long has one
# sent for it (the game's deadline, each send a state of its own): a present player who
# never chooses would otherwise hold the game, and an opponent in a rated game, for ever.
SEND_LIMIT_MS = 30_000
# With settings.ready_first, the first reading's t = 0 lies at least this long after its
# state begins (before it, silence; then the preamble as usual): more than the release lead
# (150 ms) plus the longest link lead (matches.timed.MAX_LINK_LEAD_MS, 400 ms), so the
# frame naming the first kana and its clip reaches a page over a slow link before it is due.
FIRST_LEAD_MS = 1_000
PUBLIC_SETTINGS = (
    "pace",
    "show_kimariji",
    "speech",
    "memorise_seconds",
    "otetsuki_penalty",
    "poem_set",
    "players",
    "lower_verse_twice",
    "teams",
    "otetsuki_rule",
)


@cache
def pool_static_kimariji(poem: int, pool: tuple[int, ...]) -> int:
    """Kimariji before any reading when only the poems of `pool` are ever read."""
    if len(pool) == catalogue.POEM_COUNT:
        return static_kimariji(poem)
    return dynamic_kimariji(poem, set(ALL_POEMS) - set(pool))


def current_kimariji(poem: int, unread: Sequence[int]) -> int:
    """Dynamic kimariji: only poems still to be read (in this game's pool) are rivals."""
    return dynamic_kimariji(poem, set(ALL_POEMS) - set(unread))


@lru_cache(maxsize=256)
def _field_kimariji(cards: tuple[int, ...], unread: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """Current kimariji of every card on the field (views repeat it until the next reading)."""
    return tuple((str(card), current_kimariji(card, unread)) for card in cards)


# --- state helpers ----------------------------------------------------------------


def clone(state: State) -> State:
    """A deep copy (states hold only dicts, lists, numbers, strings, booleans and None)."""
    return marshal.loads(marshal.dumps(state))


def _rng(state: State) -> random.Random:
    """The state's RNG: a fresh generator per draw from (seed, counter)."""
    state["rng_n"] += 1
    return random.Random(f"karuta/{state['seed']}/{state['rng_n']}")


def _other(side: int) -> int:
    return 1 - side


def sided(state: State) -> bool:
    """Played on two sides of three rows (competitive, genpei)."""
    return state["mode"] in SIDED_MODES


def team_of(state: State, seat: int) -> int:
    """The side a seat plays for: its team in genpei, the seat itself in competitive."""
    teams = state.get("teams")
    return seat if teams is None else teams[seat]


def team_seats(state: State, side: int) -> list[int]:
    return [seat for seat in range(len(state["seats"])) if team_of(state, seat) == side]


def side_of(state: State, card: int) -> int | None:
    """Sided modes: the side (competitive: the seat; genpei: the team) on which `card`
    lies, or None (dead or gone)."""
    for side, rows in enumerate(state["sides"]):
        for row in rows:
            if card in row:
                return side
    return None


def side_cards(state: State, side: int) -> list[int]:
    """The cards of a side (competitive: a seat's; genpei: a team's)."""
    return [card for row in state["sides"][side] for card in row]


def field_cards(state: State) -> list[int]:
    if sided(state):
        return [card for rows in state["sides"] for row in rows for card in row]
    return [entry[0] for entry in state["field"]]


def _on_field(state: State, card: int) -> bool:
    if sided(state):
        return side_of(state, card) is not None
    return any(entry[0] == card for entry in state["field"])


def _split_rows(cards: list[int]) -> list[list[int]]:
    """Deal a side into upper/middle/lower rows (25 → 8/8/9)."""
    base, extra = divmod(len(cards), 3)
    sizes = [base, base + (1 if extra == 2 else 0), base + (1 if extra else 0)]
    rows, start = [], 0
    for size in sizes:
        rows.append(cards[start : start + size])
        start += size
    return rows


def _scatter(cards: list[int], rng: random.Random) -> list[list[Any]]:
    """Chirashi/solo field: each card in its own cell of a grid, jittered, randomly turned."""
    columns = 1
    while columns * columns < len(cards):
        columns += 1
    rows = -(-len(cards) // columns)
    cells = list(range(columns * rows))
    rng.shuffle(cells)
    field = []
    for card, cell in zip(cards, cells, strict=False):
        cx, cy = cell % columns, cell // columns
        x = (cx + 0.5 + rng.uniform(-0.2, 0.2)) / columns
        y = (cy + 0.5 + rng.uniform(-0.2, 0.2)) / rows
        field.append([card, round(x, 4), round(y, 4), rng.randrange(0, 360, 15)])
    return field


# --- new game -----------------------------------------------------------------------


def new_state(settings: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], seed: int) -> State:
    """A new game. `seats`: one {"is_cpu": bool, "level": key or None} per seat, in order."""
    s = normalize_settings(settings)
    if len(seats) != s["players"]:
        raise InvalidSettingsError(f"{s['mode']} needs {s['players']} seats, got {len(seats)}")
    if not is_int(seed):
        raise InvalidSettingsError("the seed must be a whole number")
    seat_list = []
    seat_levels = s["seat_levels"] or [None] * len(seats)
    for seat, chosen in zip(seats, seat_levels, strict=True):
        own = seat.get("level") if chosen is None else chosen
        level = own or (s["cpu_level"] if seat.get("is_cpu") else None)
        if level is not None and level not in LEVEL_KEYS:
            raise InvalidSettingsError(f"unknown CPU level {level!r}")
        seat_list.append({"is_cpu": bool(seat.get("is_cpu")), "level": level})
    pool = list(pool_of(s))
    state: State = {
        "v": VERSION,
        "mode": s["mode"],
        "settings": s,
        "seats": seat_list,
        "seed": seed,
        "rng_n": 0,
        "pool": pool,
        "queue": [],
        "read": [],
        "phase": "memorise",
        "ready": [],
        "reading": None,
        "send": None,
        "last": None,
        "sit_out": [],
        "winner": None,
        # Each seat's last one-way delay and jitter estimates, from the platform's stamp of
        # its last action (judge.py): how long the judging window waits for it. (States
        # saved before the jitter was stamped lack "jitter": none.)
        "owd": [None for _ in seat_list],
        "jitter": [None for _ in seat_list],
        "form": [cpu_form(seed, i) if seat["is_cpu"] else None for i, seat in enumerate(seat_list)],
        "tally": [
            {
                "takes": 0,
                "otetsuki": 0,
                "readings": 0,
                "take_sum": 0,
                "take_n": 0,
                "reach_sum": 0,
                "reach_n": 0,
            }
            for _ in seat_list
        ],
    }
    rng = _rng(state)
    deal = pool[:]
    rng.shuffle(deal)
    if s["mode"] == "genpei":
        state["teams"] = seat_teams(s)
    if sided(state):
        # Competitive lays out half the poems; genpei all of them, or half of a poem subset
        # (the other half read as dead cards, as in competitive).
        whole = s["mode"] == "genpei" and len(pool) == len(ALL_POEMS)
        per_side = len(pool) // (2 if whole else 4)
        state["sides"] = [
            _split_rows(deal[:per_side]),
            _split_rows(deal[per_side : 2 * per_side]),
        ]
    else:
        state["field"] = _scatter(deal, rng)
        state["taken"] = [[] for _ in seat_list]
        state["records"] = []
    queue = pool[:]
    rng.shuffle(queue)
    state["queue"] = queue
    events: list[Event] = []
    if not _memorises(s, seat_list):
        _start_reading(state, events)
    return state


def _memorises(s: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a game opens with the memorise phase: a memorisation time, or (ready_first)
    a person seated whose page must say it can play before the first reading."""
    return s["memorise_seconds"] > 0 or (
        s["ready_first"] and any(not seat["is_cpu"] for seat in seats)
    )


def situation(
    sides: Sequence[Sequence[Sequence[int]]],
    queue: Sequence[int],
    read: Sequence[int] = (),
    settings: Mapping[str, Any] | None = None,
    seed: int = 0,
    teams: Sequence[int] | None = None,
) -> State:
    """A competitive position built by hand (tests, tutorials): two sides of three rows,
    the reading order from the poem read next, and the poems read already. With `teams`
    (two team sizes) a genpei position: the sides are the teams'."""
    if teams is None:
        chosen = {"mode": "competitive", "memorise_seconds": 0, **(settings or {})}
    else:
        chosen = {"mode": "genpei", "teams": list(teams), "memorise_seconds": 0}
        chosen.update(settings or {})
    count = 2 if teams is None else sum(teams)
    state = new_state(chosen, [{"is_cpu": False} for _ in range(count)], seed)
    on_field = [c for rows in sides for row in rows for c in row]
    everything = list(queue) + list(read)
    if len(set(everything)) != len(everything) or not set(on_field) <= set(queue):
        raise InvalidSettingsError("field cards must be unread and no poem may appear twice")
    state["sides"] = [[list(row) for row in rows] for rows in sides]
    state["queue"] = list(queue)
    state["read"] = list(read)
    state["pool"] = sorted(everything)
    state["reading"] = None
    _start_reading(state, [])
    return state


# --- whose move ------------------------------------------------------------------------


def to_act(state: State) -> tuple[int, ...]:
    phase = state["phase"]
    if phase == "memorise":
        return tuple(i for i in range(len(state["seats"])) if i not in state["ready"])
    if phase == "reading":
        r = state["reading"]
        return tuple(i for i in r["active"] if i not in r["done"])
    if phase == "send":
        return (_sender(state["send"]),)
    return ()


def _sender(send: Mapping[str, Any]) -> int:
    """The seat that chooses the cards to send (genpei: "by"; competitive: the sending seat)."""
    return send.get("by", send["from"])


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """The actions `seat` may send now. Touches and arrangements need their fields filled in:
    touches a time "t" (0..close), arrangements the new rows."""
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "memorise":
        actions: list[dict[str, Any]] = [{"type": "ready"}]
        if sided(state):
            actions.append({"type": "arrange"})
        return actions
    if phase == "send":
        cards = side_cards(state, state["send"]["from"])
        return [{"type": "send", "card": card} for card in cards]
    touched = {card for card, _ in state["reading"]["touches"][seat]}
    actions = [{"type": "touch", "card": c} for c in field_cards(state) if c not in touched]
    actions.append({"type": "pass"})
    if sided(state) and not state["reading"]["touches"][seat]:
        actions.append({"type": "arrange"})
    return actions


# --- apply ---------------------------------------------------------------------------------


def apply(state: State, seat: int, action: Mapping[str, Any]) -> tuple[State, list[Event]]:
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise InvalidActionError("an action is an object with a 'type'")
    if not is_int(seat) or not 0 <= seat < len(state["seats"]):
        raise InvalidActionError(f"no seat {seat!r}")
    if state["phase"] == "over":
        raise GameOverError("the game is over")
    kind = action["type"]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise InvalidActionError(f"unknown action type {kind!r}")
    check, run = handler
    check(state, seat, action)  # raises before anything changes
    new = clone(state)
    stamp = judge.stamp_of(action)
    if stamp is not None:
        # The new state begins when the action was decided: the reading's clock moves on.
        if new["reading"] is not None:
            new["reading"]["since"] = new["reading"].get("since", 0) + stamp["decided"]
        elif new["phase"] == "memorise":  # and so does the memorisation time's
            new["memorise_ms"] = new.get("memorise_ms", 0) + stamp["decided"]
        if not stamp["server"]:
            new.setdefault("owd", [None] * len(new["seats"]))[seat] = stamp["owd"]
            new.setdefault("jitter", [None] * len(new["seats"]))[seat] = stamp["jitter"]
    events: list[Event] = []
    run(new, seat, action, events)
    return new, events


def _need_int(action: Mapping[str, Any], key: str) -> int:
    value = action.get(key)
    if not is_int(value):
        raise InvalidActionError(f"'{key}' must be a whole number")
    return value


def ready_deadline(state: State) -> int | None:
    """Ms after the current state began at which the server plays "ready" for every seat
    still memorising: the memorisation time plus READY_GRACE_MS from the phase's start (the
    stamps of the actions since then say how long ago that was; unstamped: at this state's
    start). None outside the phase."""
    if state["phase"] != "memorise":
        return None
    seconds = state["settings"]["memorise_seconds"]
    limit = seconds * 1000 + READY_GRACE_MS if seconds else READY_COLD_MS
    return limit - state.get("memorise_ms", 0)


def _check_ready(state: State, seat: int, action: Mapping[str, Any]) -> None:
    if state["phase"] != "memorise":
        raise IllegalActionError("'ready' is for the memorisation time")
    if seat in state["ready"]:
        raise NotYourTurnError("this seat is ready already")


def _run_ready(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    state["ready"].append(seat)
    events.append({"type": "ready", "seat": seat})
    if len(state["ready"]) == len(state["seats"]):
        _start_reading(state, events)


def _check_arrange(state: State, seat: int, action: Mapping[str, Any]) -> None:
    if not sided(state):
        raise IllegalActionError("only competitive and genpei players arrange their side")
    rows = action.get("rows")
    if not isinstance(rows, list) or len(rows) != 3 or not all(isinstance(r, list) for r in rows):
        raise InvalidActionError("'rows' must be three lists of cards (upper, middle, lower)")
    if not all(is_int(c) for row in rows for c in row):
        raise InvalidActionError("cards are poem numbers")
    if state["phase"] == "reading":
        t = _need_int(action, "t")
        if t >= 0:
            raise IllegalActionError("cards cannot be moved once the upper verse has started")
        if seat not in to_act(state) or state["reading"]["touches"][seat]:
            raise NotYourTurnError("this seat has already played this reading")
    elif state["phase"] != "memorise":
        raise IllegalActionError("cards can be moved between readings only")
    if sorted(c for row in rows for c in row) != sorted(side_cards(state, team_of(state, seat))):
        raise IllegalActionError("an arrangement must hold exactly the cards of your side")


def _run_arrange(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    state["sides"][team_of(state, seat)] = [list(row) for row in action["rows"]]
    events.append({"type": "arranged", "seat": seat})


class StaleActError(IllegalActionError):
    """A touch or pass meant for a reading that is over (it names another `reading`): the
    reading in progress is untouched, and the refusal is logged. A pass quietly: the server
    passed the seat already and a page's pass often loses that race, so its line waits for
    the other seats' next frame instead of sending each a frame at every reading."""

    code = "stale"
    logged = True

    def __init__(self, reason: str, kind: str) -> None:
        super().__init__(f"stale {kind} ({reason})")
        self.reason = reason
        self.quiet = kind == "pass"


def _check_bound(state: State, action: Mapping[str, Any]) -> None:
    """A touch or pass naming its reading counts only in that reading."""
    if "reading" not in action:
        return
    number = action["reading"]
    if not is_int(number):
        raise InvalidActionError("'reading' must be a whole number")
    r = state["reading"]
    if state["phase"] != "reading" or r is None or r["number"] != number:
        raise StaleActError("reading", action["type"])


def _check_touch(state: State, seat: int, action: Mapping[str, Any]) -> None:
    card = _need_int(action, "card")
    t = _need_int(action, "t")
    _check_bound(state, action)
    _check_in_reading(state, seat)
    r = state["reading"]
    stamp = judge.stamp_of(action)
    if not _on_field(state, card):
        raise IllegalActionError(f"card {card} is not on the field")
    if not 0 <= t <= r["close"]:
        raise IllegalActionError(f"a touch time must lie between 0 and {r['close']} ms")
    mine = r["touches"][seat]
    if mine and t < mine[-1][1]:
        raise IllegalActionError("touches of one reading come in time order")
    if any(c == card for c, _ in mine):
        raise IllegalActionError(f"card {card} was touched already")
    judge.check_touch(
        r.get("since", 0),
        reading.kami_times(r["poem"], state["settings"]["pace"]),
        r["poem"],
        state["queue"],
        card,
        t,
        stamp,
        action.get("judge", "corrected"),
    )


def _check_in_reading(state: State, seat: int) -> None:
    if state["phase"] != "reading":
        raise IllegalActionError("no poem is being read")
    r = state["reading"]
    if seat not in r["active"]:
        raise NotYourTurnError("this seat sits out this reading")
    if seat in r["done"]:
        raise NotYourTurnError("this seat has finished this reading")


def _run_touch(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    r = state["reading"]
    card = action["card"]
    t = judge.judged_time(r, action["t"], judge.stamp_of(action), action.get("judge", "corrected"))
    mine = r["touches"][seat]
    t = max(t, mine[-1][1]) if mine else t
    r["touches"][seat].append([card, t])
    # Neither the card nor the time: the view shows a touch once its time is reached, and
    # the reading's result says who took what.
    events.append({"type": "touch", "seat": seat})
    if card == r["poem"] or state["mode"] == "chirashi":
        _finish(state, seat, events)


def _check_pass(state: State, seat: int, action: Mapping[str, Any]) -> None:
    _check_bound(state, action)
    _check_in_reading(state, seat)


def _run_pass(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    events.append({"type": "pass", "seat": seat})
    _finish(state, seat, events)


def _finish(state: State, seat: int, events: list[Event]) -> None:
    r = state["reading"]
    r["done"].append(seat)
    if all(s in r["done"] for s in r["active"]):
        _RESOLVERS[state["mode"]](state, events)


def _check_send(state: State, seat: int, action: Mapping[str, Any]) -> None:
    card = _need_int(action, "card")
    if state["phase"] != "send":
        raise IllegalActionError("there is nothing to send")
    if seat != _sender(state["send"]):
        raise NotYourTurnError("another player is sending")
    if card not in side_cards(state, state["send"]["from"]):
        raise IllegalActionError(f"card {card} is not on your side")


def _run_send(state: State, seat: int, action: Mapping[str, Any], events: list[Event]) -> None:
    card = action["card"]
    sender, receiver = state["send"]["from"], state["send"]["to"]
    for row in state["sides"][sender]:
        if card in row:
            row.remove(card)
    rows = state["sides"][receiver]
    target = min(RECEIVE_ROW_ORDER, key=lambda r: (len(rows[r]), RECEIVE_ROW_ORDER.index(r)))
    rows[target].append(card)
    state["send"]["remaining"] -= 1
    # Genpei: "from"/"receiver" are teams and "by" the seat that chose.
    event = {"type": "send", "from": sender, "receiver": receiver, "card": card}
    if "by" in state["send"]:
        event["by"] = seat
    events.append(event)
    if state["send"]["remaining"] == 0:
        state["send"] = None
        _after_competitive_reading(state, events)


_HANDLERS = {
    "ready": (_check_ready, _run_ready),
    "arrange": (_check_arrange, _run_arrange),
    "touch": (_check_touch, _run_touch),
    "pass": (_check_pass, _run_pass),
    "send": (_check_send, _run_send),
}


# --- readings --------------------------------------------------------------------------------


def _start_reading(state: State, events: list[Event]) -> None:
    if not state["queue"]:
        _end(state, events)
        return
    mode, s = state["mode"], state["settings"]
    poem = state["queue"][0]
    if state["read"]:
        prev: int | None = state["read"][-1]
    else:
        prev = reading.JOKA if sided(state) else None
    seats = range(len(state["seats"]))
    sitting_out = [i for i in state["sit_out"] if i in seats]
    if len(sitting_out) == len(state["seats"]):
        sitting_out = []  # nobody would play: everyone plays instead
    state["sit_out"] = []
    kimariji = current_kimariji(poem, state["queue"])
    preamble = reading.preamble(prev, s["pace"])
    state.pop("memorise_ms", None)  # the memorisation time's clock (ready_deadline) ends
    state["reading"] = {
        "number": len(state["read"]) + 1,
        "poem": poem,
        "prev": prev,
        "kimariji": kimariji,
        "static_kimariji": pool_static_kimariji(poem, tuple(state["pool"])),
        "decided": reading.decided_ms(poem, kimariji, s["pace"]),
        "close": reading.close_ms(reading_mode(mode), poem, s["pace"], lower_reads(s)),
        "active": [i for i in seats if i not in sitting_out],
        "sitting_out": sitting_out,
        "done": [],
        "touches": [[] for _ in seats],
        # Reading time at which the current state began (judge.py): this state began as
        # the preamble started, or (ready_first) FIRST_LEAD_MS before t = 0 at the latest.
        "since": _first_since(state, preamble[0]["start"]),
    }
    state["phase"] = "reading"
    # Never the poem: this event reaches every client as the reading begins.
    events.append({"type": "reading", "number": state["reading"]["number"], "prev": prev})


def _first_since(state: State, preamble_start: int) -> int:
    if state["read"] or not state["settings"].get("ready_first"):
        return preamble_start
    return min(preamble_start, -FIRST_LEAD_MS)


def _first_take(r: dict[str, Any]) -> tuple[list[int], int | None]:
    """Seats that touched the read card at the earliest time, and that time."""
    best: int | None = None
    seats: list[int] = []
    for seat, touches in enumerate(r["touches"]):
        for card, t in touches:
            if card == r["poem"]:
                if best is None or t < best:
                    best, seats = t, [seat]
                elif t == best:
                    seats.append(seat)
    return seats, best


def _counted(touches: list[list[int]], limit: int | None) -> list[list[int]]:
    """Touches that count: all of them, or those not later than the take."""
    return [tc for tc in touches if limit is None or tc[1] <= limit]


def _note_take(state: State, taker: int, t: int) -> None:
    """Count a take and its time after the deciding kana (take_*), and for every seat that
    touched the read card at all, its own time after the deciding kana (reach_*): the
    speed figure that does not depend on who won the race."""
    r = state["reading"]
    tally = state["tally"][taker]
    tally["takes"] += 1
    tally["take_sum"] += t - r["decided"]
    tally["take_n"] += 1


def _reaches(r: dict[str, Any]) -> list[list[int]]:
    """[seat, t] of every seat's touch on the read card, fastest first."""
    found = []
    for seat, touches in enumerate(r["touches"]):
        t = next((t for card, t in touches if card == r["poem"]), None)
        if t is not None:
            found.append([seat, t])
    return sorted(found, key=lambda pair: (pair[1], pair[0]))


def _race(r: dict[str, Any], taker: int | None) -> dict[str, Any]:
    """Who was faster and by how much: every touch on the read card, and the taker's lead
    over the next seat's (None when nobody else touched it)."""
    reaches = _reaches(r)
    mine = next((t for s, t in reaches if s == taker), None)
    others = [t for s, t in reaches if s != taker]
    by = others[0] - mine if mine is not None and others else None
    return {"reaches": reaches, "by": by}


def _note_reaches(state: State) -> None:
    r = state["reading"]
    for seat, touches in enumerate(r["touches"]):
        reach = next((t for card, t in touches if card == r["poem"]), None)
        if reach is not None:
            state["tally"][seat]["reach_sum"] += reach - r["decided"]
            state["tally"][seat]["reach_n"] += 1


def _resolve_competitive(state: State, events: list[Event]) -> None:
    """Competitive and genpei alike: a side is a seat's (competitive) or a team's (genpei),
    and every rule below is said of sides; a seat's touches count for its side."""
    r = state["reading"]
    _note_reaches(state)
    poem = r["poem"]
    owner = side_of(state, poem)
    seats = range(len(state["seats"]))
    tied, take_t = _first_take(r)
    taker = None
    if tied:
        # A tie on the read card goes to the side it lies on (then to the lower seat).
        taker = next((seat for seat in tied if team_of(state, seat) == owner), tied[0])
    any_wrong = state["settings"].get("otetsuki_rule") == "any"
    otetsuki = [0 for _ in seats]
    for seat in seats:
        counted = [c for c, _ in _counted(r["touches"][seat], take_t) if c != poem]
        sides = {side_of(state, c) for c in counted}
        if owner is None:
            otetsuki[seat] = len(sides)  # dead card: each side touched is one otetsuki
        else:
            otetsuki[seat] = 1 if any(s != owner for s in sides) else 0
        if any_wrong and counted:
            otetsuki[seat] = max(otetsuki[seat], 1)  # the menu option: any wrong card
    for seat in seats:
        state["tally"][seat]["readings"] += 1
        state["tally"][seat]["otetsuki"] += otetsuki[seat]
    untouched = owner is not None and taker is None
    if owner is not None:
        for row in state["sides"][owner]:
            if poem in row:
                row.remove(poem)
    if taker is not None:
        _note_take(state, taker, take_t)
    taker_side = None if taker is None else team_of(state, taker)
    # Each side's otetsuki: every seat's of the side counts (one seat in competitive).
    faults = [sum(otetsuki[seat] for seat in team_seats(state, side)) for side in (0, 1)]
    owes = [0, 0]  # owes[s]: cards side s must send to the other side
    if taker_side is not None and taker_side != owner:
        owes[taker_side] += 1
    tomo = faults[0] > 0 and faults[1] > 0
    if not tomo:
        for side in (0, 1):
            owes[_other(side)] += faults[side]
    net = owes[0] - owes[1]
    sender = 0 if net > 0 else 1
    count = min(abs(net), len(side_cards(state, sender)))
    send: dict[str, Any] | None = None
    if count:
        send = {"from": sender, "to": _other(sender), "count": count}
        if state["mode"] == "genpei":
            # The taker chooses the cards its team sends; a penalty the other team sends is
            # chosen by that team's first seat.
            send["by"] = taker if taker_side == sender else team_seats(state, sender)[0]
    result = {
        "type": "result",
        "number": r["number"],
        "poem": poem,
        "dead": owner is None,
        "side": owner,
        "taker": taker,
        "t": take_t if taker is not None else None,
        "after_kimariji": take_t - r["decided"] if taker is not None else None,
        "simultaneous": len(tied) > 1,
        "untouched": untouched,
        "otetsuki": otetsuki,
        "tomo_otetsu": tomo,
        "dabu": _dabu(owner, taker_side, faults, tomo),
        "cancelled": owes[0] > 0 and owes[1] > 0 and owes[0] == owes[1],
        "send": send,
        **_race(r, taker),
    }
    if state["mode"] == "genpei":
        result["taker_team"] = taker_side
        result["team_otetsuki"] = faults
    events.append(result)
    state["last"] = result
    _retire_poem(state)
    if count:
        state["phase"] = "send"
        state["send"] = {k: v for k, v in send.items() if k != "count"} | {"remaining": count}
        state["reading"] = None
    else:
        _after_competitive_reading(state, events)


def _dabu(owner: int | None, taker: int | None, otetsuki: list[int], tomo: bool) -> bool:
    """ダブ is named by its cause, not by the count sent: the read card lay on your side,
    you committed otetsuki, and the opponent took your card (you receive 2). Two cards
    sent for touching both sides on a dead card are a double otetsuki, not dabu. (Sides:
    `taker` is the taking side and `otetsuki` counts per side.)"""
    if owner is None or taker is None or tomo:
        return False
    return taker != owner and otetsuki[owner] > 0


def _retire_poem(state: State) -> None:
    poem = state["reading"]["poem"]
    state["queue"].remove(poem)
    state["read"].append(poem)


def _after_competitive_reading(state: State, events: list[Event]) -> None:
    state["reading"] = None
    for side in (0, 1):
        if not side_cards(state, side):
            state["winner"] = side  # genpei: the team
            _end(state, events)
            return
    _start_reading(state, events)


def _resolve_chirashi(state: State, events: list[Event]) -> None:
    r = state["reading"]
    _note_reaches(state)
    poem = r["poem"]
    tied, take_t = _first_take(r)
    taker = None
    if len(tied) == 1:
        taker = tied[0]
    elif tied:
        taker = _rng(state).choice(sorted(tied))
    otetsuki = [0] * len(state["seats"])
    for seat in r["active"]:
        if any(c != poem for c, _ in _counted(r["touches"][seat], take_t)):
            otetsuki[seat] = 1
        state["tally"][seat]["readings"] += 1
        state["tally"][seat]["otetsuki"] += otetsuki[seat]
    state["field"] = [entry for entry in state["field"] if entry[0] != poem]
    _retire_poem(state)
    if taker is not None:
        state["taken"][taker].append(poem)
        _note_take(state, taker, take_t)
    returned: list[list[int]] = []
    penalty = state["settings"]["otetsuki_penalty"]
    offenders = [s for s, n in enumerate(otetsuki) if n]
    if penalty == "sit_out":
        state["sit_out"] = offenders
    else:
        for seat in offenders:
            if state["taken"][seat]:
                card = state["taken"][seat].pop()
                rng = _rng(state)
                x, y = round(rng.uniform(0.05, 0.95), 4), round(rng.uniform(0.05, 0.95), 4)
                state["field"].append([card, x, y, rng.randrange(0, 360, 15)])
                state["queue"].insert(rng.randint(0, len(state["queue"])), card)
                returned.append([seat, card])
    result = {
        "type": "result",
        "number": r["number"],
        "poem": poem,
        "taker": taker,
        "t": take_t if taker is not None else None,
        "after_kimariji": take_t - r["decided"] if taker is not None else None,
        "simultaneous": len(tied) > 1,
        "otetsuki": otetsuki,
        "sit_out": state["sit_out"][:],
        "returned": returned,
        **_race(r, taker),
    }
    events.append(result)
    state["last"] = result
    state["reading"] = None
    _start_reading(state, events)


def _resolve_solo(state: State, events: list[Event]) -> None:
    r = state["reading"]
    _note_reaches(state)
    poem = r["poem"]
    touches = r["touches"][0]
    take = next((t for c, t in touches if c == poem), None)
    record = {
        "poem": poem,
        "kimariji": r["kimariji"],
        "decided": r["decided"],
        "t": take,
        "after_kimariji": None if take is None else take - r["decided"],
        "wrong": [[c, t] for c, t in touches if c != poem],
    }
    state["records"].append(record)
    state["tally"][0]["readings"] += 1
    state["tally"][0]["otetsuki"] += len(record["wrong"])
    if take is not None:
        state["taken"][0].append(poem)
        _note_take(state, 0, take)
    state["field"] = [entry for entry in state["field"] if entry[0] != poem]
    _retire_poem(state)
    result = {"type": "result", "number": r["number"], **record}
    events.append(result)
    state["last"] = result
    state["reading"] = None
    _start_reading(state, events)


_RESOLVERS = {
    "competitive": _resolve_competitive,
    "chirashi": _resolve_chirashi,
    "solo": _resolve_solo,
    "genpei": _resolve_competitive,
}


def _end(state: State, events: list[Event]) -> None:
    state["phase"] = "over"
    state["reading"] = None
    events.append({"type": "over", **(result(state) or {})})


# --- outputs ---------------------------------------------------------------------------------


def _places(scores: list[int], higher_is_better: bool) -> list[int]:
    """Standard competition ranking (1, 1, 3) of the seats' scores."""
    key = [(-x if higher_is_better else x) for x in scores]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def result(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    mode = state["mode"]
    if mode == "genpei":
        team = state["winner"]
        left = [len(side_cards(state, side)) for side in (0, 1)]
        seats = range(len(state["seats"]))
        return {
            "winner": None,  # a team wins: places name its seats
            "winner_team": team,
            "places": [1 if team_of(state, s) == team else 2 for s in seats],
            # Each seat's score is its team's cards left; the margin is the losers' count.
            "scores": [left[team_of(state, s)] for s in seats],
            "team_scores": left,
            "margin": left[_other(team)],
            "score_kind": "cards_left",
        }
    if mode == "competitive":
        winner = state["winner"]
        remaining = [len(side_cards(state, s)) for s in (0, 1)]
        return {
            "winner": winner,
            "places": [1 if s == winner else 2 for s in (0, 1)],
            "scores": remaining,
            "score_kind": "cards_left",
        }
    scores = [len(cards) for cards in state["taken"]]
    places = _places(scores, higher_is_better=True)
    winners = [s for s, p in enumerate(places) if p == 1]
    return {
        "winner": winners[0] if len(winners) == 1 else None,
        "places": places,
        "scores": scores,
        "score_kind": "cards_taken",
    }


def cpu_form(seed: int, seat: int) -> float:
    """A CPU seat's form in this game (cpu.py: how a level's player varies from game to
    game), a standard normal draw fixed by the seed. Drawn from its own generator, so the
    deal and the reading order of a seed are what they were before CPUs had a form."""
    return random.Random(f"karuta-form/{seed}/{seat}").gauss(0.0, 1.0)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may see. Never the seed, the RNG or the reading order."""
    s = state["settings"]
    mode = state["mode"]
    out: dict[str, Any] = {
        "game": "karuta",
        "mode": mode,
        "phase": state["phase"],
        "you": seat,
        "seats": [{"index": i, **info} for i, info in enumerate(state["seats"])],
        "settings": {key: s.get(key) for key in PUBLIC_SETTINGS},
        "to_act": list(to_act(state)),
        "pool_size": len(state["pool"]),
        "read": state["read"][:],
        "unread_count": len(state["queue"]),
        "last": state["last"],
        "tally": [dict(t) for t in state["tally"]],
        "result": result(state),
    }
    form = state.get("form")  # states saved before CPUs had a form lack it: an average day
    if seat is not None and state["seats"][seat]["is_cpu"]:
        out["form"] = form[seat] if form else 0.0  # a CPU's own, never another seat's
    if mode == "genpei":
        out["teams"] = state["teams"][:]
    if sided(state):
        out["sides"] = [[row[:] for row in rows] for rows in state["sides"]]
        out["send"] = dict(state["send"]) if state["send"] else None
        out["ready"] = state["ready"][:]
    else:
        out["field"] = [entry[:] for entry in state["field"]]
        out["taken"] = [cards[:] for cards in state["taken"]]
    if mode == "solo":
        out["records"] = [dict(rec) for rec in state["records"]]
    if s["show_kimariji"] and state["phase"] != "over":
        out["kimariji"] = dict(
            _field_kimariji(tuple(field_cards(state)), tuple(sorted(state["queue"])))
        )
    r = state["reading"]
    if r is not None:
        out["reading"] = {
            "number": r["number"],
            "poem": r["poem"],
            "prev": r["prev"],
            "static_kimariji": r["static_kimariji"],
            "active": r["active"][:],
            "sitting_out": r["sitting_out"][:],
            "done": r["done"][:],
            "touches": [
                [i, card, t] for i, touches in enumerate(r["touches"]) for card, t in touches
            ],
            # ms from the moment this state began to the reading's t = 0.
            "t0": -r.get("since", 0),
            **reading.schedule(
                reading_mode(mode), r["poem"], r["prev"], s["pace"], r["kimariji"], lower_reads(s)
            ),
        }
    else:
        out["reading"] = None
    return out


def load(data: Any) -> State:
    """Check that `data` looks like a dumped state of this version and return a copy."""
    if not isinstance(data, dict) or data.get("v") != VERSION or data.get("mode") not in MODES:
        raise InvalidActionError("not a karuta state")
    return clone(data)
