"""The game registry, shaped like django.contrib.admin's site registry."""

from __future__ import annotations

from gamekit.base import Game


class AlreadyRegistered(Exception):
    pass


class NotRegistered(Exception):
    pass


class GameRegistry:
    def __init__(self) -> None:
        self._games: dict[str, Game] = {}

    def register(self, game: Game | type[Game]) -> Game:
        if isinstance(game, type):
            game = game()
        if not isinstance(game, Game):
            raise TypeError(f"{game!r} is not a gamekit.Game")
        if game.slug in self._games:
            raise AlreadyRegistered(f"A game with slug {game.slug!r} is already registered.")
        self._games[game.slug] = game
        return game

    def unregister(self, slug: str) -> None:
        if slug not in self._games:
            raise NotRegistered(f"No game with slug {slug!r} is registered.")
        del self._games[slug]

    def is_registered(self, slug: str) -> bool:
        return slug in self._games

    def get(self, slug: str) -> Game:
        try:
            return self._games[slug]
        except KeyError:
            raise NotRegistered(f"No game with slug {slug!r} is registered.") from None

    def all(self) -> list[Game]:
        return sorted(self._games.values(), key=lambda g: (g.order, g.slug))


registry = GameRegistry()


def register(game_class: type[Game]) -> type[Game]:
    """Class decorator for a game.py module: `@register class Bozu(Game): ...`."""
    registry.register(game_class)
    return game_class
