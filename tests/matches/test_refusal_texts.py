"""Every refusal a play page can receive has its own text in ja, en and zh-hans (issue 43):
each match error code, each code of every game, and each reason of karuta's impossible
touch (guess / late / future), whether or not the process holds a snapshot of the match
(without one the game is not known, and the page got the generic "その操作はできません。")."""

from __future__ import annotations

import pytest
from django.utils import translation

import gamekit
from gamekit.checks import _error_classes
from gamekit.messages import GAME_MESSAGES
from games.karuta.judge import REASONS
from matches.errors import MatchError, message_for, message_of

LANGUAGES = ("ja", "en", "zh-hans")


def refusal(code: str, reason: str | None = None, message=None) -> Exception:
    """An engine's refusal as the platform sees it: a code, maybe a reason and a message."""
    cls = type("Refusal", (Exception,), {"code": code, "message": message})
    exc = cls(code)
    exc.reason = reason
    return exc


def cases() -> list[tuple[str, str | None, Exception]]:
    found = [("platform", code, MatchError(code)) for code in MatchError.registry]
    found += [("platform", code, refusal(code)) for code in GAME_MESSAGES]
    for game in gamekit.registry.all():
        codes = {c.code: getattr(c, "message", None) for c in _error_classes(game)}
        codes.update({k: None for k in game.error_messages if "." not in k and k not in codes})
        found += [(game.slug, code, refusal(code, message=text)) for code, text in codes.items()]
    found += [("karuta", f"impossible_touch.{r}", refusal("impossible_touch", r)) for r in REASONS]
    return found


def texts(slug: str, exc: Exception, game) -> dict[str, str]:
    out = {}
    for language in LANGUAGES:
        with translation.override(language):
            out[language] = message_of(exc, game)
    return out


@pytest.mark.parametrize(("slug", "code", "exc"), cases(), ids=lambda v: str(v)[:40])
def test_every_refusal_has_its_own_translated_text(slug, code, exc):
    game = gamekit.registry.get(slug) if slug != "platform" else None
    shown = texts(slug, exc, game)
    # The same without the game (no snapshot in this process).
    assert texts(slug, exc, None) == shown
    assert all(shown.values()), shown
    assert shown["ja"] != shown["en"] != shown["zh-hans"] != shown["ja"], shown
    if code not in ("game_error",):
        with translation.override("ja"):
            assert shown["ja"] != message_for("game_error"), code  # not the generic refusal


def test_each_reason_of_an_impossible_touch_says_its_own_thing():
    karuta = gamekit.registry.get("karuta")
    for language in LANGUAGES:
        with translation.override(language):
            said = [message_of(refusal("impossible_touch", r), karuta) for r in REASONS]
            said.append(message_of(refusal("impossible_touch"), karuta))
        assert len(set(said)) == len(said), (language, said)
    with translation.override("en"):
        guess = message_of(refusal("impossible_touch", "guess"), None)
    assert "deciding kana" in guess and "early" in guess
