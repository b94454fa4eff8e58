"""Handles (docs/players.md): what a player is called on the site.

A handle is 3-20 characters after NFKC normalisation: letters of any script (with their
combining marks), digits, `_` and `-`. Two handles are the same when their keys are:
NFKC, then case-folded, then NFKC again (case folding can undo a normalisation, e.g.
"ǅ"), so "ｋａｒｕｔａ", "Karuta" and "karuta" are one handle. Reserved words (site words,
every game's CPU level names, the seat colours, in every language) are refused, so that
nobody can pass for the computer, a colour seat or the site.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MIN_LENGTH = 3
MAX_LENGTH = 20
PUNCTUATION = frozenset("_-")

# Words of the site itself: its pages, its staff and what it calls seats with nobody signed in.
SITE_WORDS = frozenset(
    {
        "admin", "administrator", "root", "staff", "moderator", "mod", "system", "support",
        "official", "site", "owner", "anonymous", "guest", "guests", "player", "players",
        "cpu", "computer", "bot", "robot", "nobody", "null", "none", "undefined",
        "account", "accounts", "signin", "signup", "signout", "login", "logout", "register",
        "settings", "privacy", "records", "record", "play", "static", "media", "api",
        "healthz", "lobby", "events", "ratings", "leaderboard", "profile", "help", "about",
        "credits", "telemetry", "hyakunin", "ゲスト", "管理者", "访客", "管理员",
    }
)  # fmt: skip


@dataclass(frozen=True)
class HandleRefusal(Exception):
    """Why a handle was refused: `rule` is one of too_short, too_long, character,
    reserved, taken; `detail` the offending character or word, for the message."""

    rule: str
    detail: str = ""


def normalise(raw: str) -> str:
    """The handle as shown: NFKC, surrounding spaces dropped."""
    return unicodedata.normalize("NFKC", raw.strip())


def handle_key(raw: str) -> str:
    """What makes two handles the same (the unique column)."""
    return unicodedata.normalize("NFKC", normalise(raw).casefold())


def _allowed(ch: str, first: bool) -> bool:
    if ch in PUNCTUATION or unicodedata.category(ch) == "Nd":
        return True
    category = unicodedata.category(ch)
    return category.startswith("L") or (category.startswith("M") and not first)


def check(raw: str, reserved: frozenset[str] = SITE_WORDS) -> str:
    """The normalised handle, or HandleRefusal. `reserved` holds keys (handle_key)."""
    handle = normalise(raw)
    if len(handle) < MIN_LENGTH:
        raise HandleRefusal("too_short")
    if len(handle) > MAX_LENGTH:
        raise HandleRefusal("too_long")
    for i, ch in enumerate(handle):
        if not _allowed(ch, first=i == 0):
            raise HandleRefusal("character", "space" if ch.isspace() else ch)
    if handle_key(handle) in reserved:
        raise HandleRefusal("reserved", handle)
    return handle
