"""The lobby page and its three POSTs: an open seek from a game's own settings form, a
CPU game for whoever waited, and a paired seat's hand-off (lobby/handoff.py)."""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from asgiref.sync import async_to_sync
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import gamekit
from lobby import handoff, pools, store, texts, ticker
from lobby.store import LobbyError, Person
from matches.cookies import hold_seat
from telemetry.throttling import WindowCounter, address_key, client_address, rate_key

log = logging.getLogger(__name__)

SEEKS_PER_MINUTE = 5  # open seeks one person may create in a minute
ADDRESS_SEEKS_PER_MINUTE = 20  # ... and one address (guests who drop their cookies)
_ADDRESSES = WindowCounter()


def person_of(request: HttpRequest, create: bool = True) -> Person | None:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Person(f"u{user.pk}", user.pk, user.get_username())
    guest = request.session.get("lobby_guest")
    if not guest and create:
        guest = request.session["lobby_guest"] = "g" + secrets.token_hex(12)
    return Person(guest) if guest else None


def online_games() -> list[Any]:
    return [g for g in gamekit.registry.all() if "friend" in {m.value for m in g.modes}]


def _page(request: HttpRequest, forms: dict[str, Any] | None = None, status: int = 200, **extra):
    person = person_of(request)
    games = []
    for game in online_games():
        form = (forms or {}).get(game.slug)
        if form is None and game.settings_form is not None:
            form = game.settings_form(initial=None)
        games.append({"game": game, "form": form})
    all_pools = list(pools.all_pools().values())
    names = {
        "games": {g.slug: str(g.name) for g in gamekit.registry.all()},
        "paces": _pace_names(),
        "modes": {"competitive": _("competitive"), "chirashi": _("chirashi")},
    }
    ban = store.active_cooldown(person.user_id, timezone.now()) if person.user_id else None
    context = {
        "cooldown": texts.refusal(
            "cooldown", {"until": ban.end, "abandonments": ban.recent_abandonments}
        )
        if ban
        else "",
        "games": games,
        "quick": _quick_groups(all_pools),
        "names": names,
        "signed_in": person.user_id is not None,
        "offer_seconds": round(store.policy().cpu_offer_after),
        "wave_seconds": round(store.policy().interval),
        "focus_game": request.GET.get("game", ""),
        **extra,
    }
    return render(request, "lobby/lobby.html", context, status=status)


def _pace_names() -> dict[str, str]:
    from games.karuta.forms import pace_choices

    return {key: str(label) for key, label in pace_choices()}


def _quick_groups(all_pools: list[pools.Pool]) -> list[dict[str, Any]]:
    """The quick-pairing buttons, a row per kind of game, casual and rated side by side."""
    paces = _pace_names()
    rows: dict[str, dict[str, Any]] = {}
    for pool in all_pools:
        base = pool.key.rsplit("-", 1)[0]
        if pool.settings.get("mode") == "competitive":
            title = f"{pool.label} · {paces.get(str(pool.settings.get('pace')), '')}"
        else:
            title = _("%(game)s, %(n)d players") % {"game": pool.label, "n": pool.seats}
        row = rows.setdefault(base, {"base": base, "game": pool.game, "title": title})
        row["rated" if pool.rated else "casual"] = pool.key
    return list(rows.values())


def lobby(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
def seek(request: HttpRequest) -> HttpResponse:
    """An open seek from the game's own settings form; its errors come back in it."""
    person = person_of(request)
    slug = request.POST.get("game", "")
    game = next((g for g in online_games() if g.slug == slug), None)
    if game is None:
        return _page(request, status=400, seek_error=texts.refusal("no_such_game", {}))
    now = timezone.now()
    address = address_key(rate_key(client_address(request)))
    if (
        _seeks_this_minute(person.key) > SEEKS_PER_MINUTE
        or _ADDRESSES.hit(address, ADDRESS_SEEKS_PER_MINUTE, 60, 10_000, time.monotonic()) > 0
    ):
        return _page(
            request, status=429, seek_error=texts.refusal("too_many_seeks", {}), seek_game=slug
        )
    posted = {k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "game")}
    rated = posted.pop("rated", "") == "on"
    try:
        store.open_seek(game.slug, posted, rated, person, now=now)
    except pools.SettingsRefused:
        form = game.settings_form(data=posted)
        form.is_valid()
        return _page(request, {game.slug: form}, status=400, seek_game=slug)
    except LobbyError as exc:
        return _page(
            request, status=400, seek_error=texts.refusal(exc.code, exc.details), seek_game=slug
        )
    async_to_sync(ticker.announce_change)()  # everyone's list shows it now
    return redirect(reverse("lobby:page"))


def _seeks_this_minute(person: str) -> int:
    """Count one more seek for this person in their current minute, which starts at their
    first seek (the lobby cache: shared by every process with REDIS_URL)."""
    key = f"lobby:seeks:{person}"
    cache = handoff.cache()
    try:
        cache.add(key, 0, 60)
        try:
            return cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.add(key, 1, 60)
            return 1
    except Exception as exc:  # the cache (Redis) is down: the per-address limit still holds
        log.warning("lobby seek limit not counted: %s", type(exc).__name__)
        return 0


def _to_match(request: HttpRequest, match_id: Any, token: str) -> HttpResponse:
    url = reverse("matches:play", args=[match_id])
    response = redirect(url)
    hold_seat(request, response, url, token)
    return response


@require_POST
def cpu(request: HttpRequest) -> HttpResponse:
    """Nobody waits alone: a CPU game with the pool's settings at the person's strength.
    Their place in the pool is kept (the page opens this in a new tab)."""
    person = person_of(request)
    try:
        match, token = store.cpu_match(request.POST.get("pool", ""), person)
    except LobbyError:
        return redirect(reverse("lobby:page"))
    return _to_match(request, match.id, token)


@require_POST
def seat(request: HttpRequest, ticket: str) -> HttpResponse:
    """A paired seat's hand-off: the ticket's token becomes the match's seat cookie."""
    person = person_of(request, create=False)
    try:
        held = handoff.redeem(ticket, person.key) if person else None
    except Exception as exc:  # the lobby cache (Redis) is down: the ticket waits there
        log.warning("lobby seat not redeemed: %s", type(exc).__name__)
        paused = _(
            "Pairing is paused for a moment. Everyone keeps their place; it resumes by itself."
        )
        return _page(request, status=503, seek_error=paused)
    if held is None:
        return _page(request, status=410, seek_error=_("That seat has expired."))
    return _to_match(request, *held)
