"""Karuta races between two scripted players over links of different delay: the engine of
bench/bench_karuta_fairness.py and of tests/fairness/test_fairness.py.

Each match is a 2-seat friend room (chirashi: every reading is a live card both players
touch). The "near" player reaches the server through one delaying proxy, the "far" one
through another; the two have the same reaction-time law. Seats alternate between
matches so that neither link always has seat 0.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from tests.support.delay_proxy import Link, ProcessDelayProxy
from tests.support.karuta_racer import Racer, gaussian_reaction, races

# The match settings of a race game: 20 poems, the fastest pace, no lower verse twice,
# a memorisation phase so the game waits until both players are connected and synced.
RACE_SETTINGS = {
    "mode": "chirashi",
    "players": "2",
    "cpu_level": "futsu",
    "poem_set": "1",
    "pace": "very_fast",
    "memorise_seconds": "60",
    "otetsuki_penalty": "sit_out",
}


def race_settings(poem_set: int = 1, pace: float | None = None) -> dict[str, Any]:
    """The engine settings, through the karuta form as the menu would post them; `pace`
    (kana a second, up to the engine's 20) replaces the menu's fastest, 12, where a test
    only needs races, not that pace."""
    from games.karuta.forms import KarutaSettingsForm
    from games.karuta.game import Karuta

    form = KarutaSettingsForm(data={**RACE_SETTINGS, "poem_set": str(poem_set)})
    assert form.is_valid(), form.errors
    settings = Karuta().settings_from_form(form.cleaned_data)
    return settings if pace is None else {**settings, "pace": pace}


def create_race_matches(count: int, pace: float | None = None) -> list[dict[str, Any]]:
    """Friend rooms with both seats taken (Django set up, same database as the server)."""
    from matches import rooms

    out = []
    for i in range(count):
        match, token = rooms.create_match("karuta", race_settings(1 + i % 5, pace), "friend")
        _, _, second = rooms.join(match.invite_code)
        out.append({"id": str(match.id), "tokens": [token, second]})
    return out


@dataclass
class Tally:
    races: list[dict[str, Any]]
    # Refused touches: "impossible_touch (reason)", else "code: message" (losers' late
    # touches apart, as "late loser").
    refused: dict[str, int]
    readings: int

    @property
    def near_share(self) -> float:
        return sum(r["near_wins"] for r in self.races) / max(1, len(self.races))

    @property
    def far_share(self) -> float:
        return sum(r["far_wins"] for r in self.races) / max(1, len(self.races))

    def __add__(self, other: Tally) -> Tally:
        refused = dict(self.refused)
        for code, n in other.refused.items():
            refused[code] = refused.get(code, 0) + n
        return Tally(self.races + other.races, refused, self.readings + other.readings)


def count_refusals(race: dict[str, Any], refused: dict[str, int]) -> None:
    """A loser's touch that arrives after the server passed it (the judging window closed)
    is refused as any late action is: that is the race lost, not a refusal to report."""
    for who, lost in (("a", not race["a_wins"]), ("b", not race["b_wins"])):
        found = race[f"{who}_refused"]
        if found is None:
            continue
        code, message, reason = found
        late = lost and code != "impossible_touch"
        if late:
            key = "late loser"
        elif code == "impossible_touch" and reason:
            key = f"{code} ({reason})"
        else:
            key = f"{code}: {message}"
        refused[key] = refused.get(key, 0) + 1


async def run_matches(
    server_port: int,
    matches: list[dict[str, Any]],
    near: Link,
    far: Link,
    seed: int = 1,
    mean: float = 250,
    sd: float = 40,
    timeout: float = 600,
) -> Tally:
    """Play every match to its end, the near player through one proxy, the far one through
    another; returns the contested races (both touched the read card) and refusals."""
    rng = random.Random(seed)
    proxies = {
        "near": ProcessDelayProxy(server_port, up=near, down=near, seed=rng.randrange(2**32)),
        "far": ProcessDelayProxy(server_port, up=far, down=far, seed=rng.randrange(2**32)),
    }
    for proxy in proxies.values():
        proxy.start()
    origin = f"http://127.0.0.1:{server_port}"
    pairs = []
    try:
        for i, match in enumerate(matches):
            racers = {}
            for who, seat in (("near", i % 2), ("far", 1 - i % 2)):
                racers[who] = Racer(
                    url=f"ws://127.0.0.1:{proxies[who].port}/play/{match['id']}/ws/",
                    token=match["tokens"][seat],
                    reaction=gaussian_reaction(random.Random(rng.randrange(2**32)), mean, sd),
                    origin=origin,
                    name=f"{who}{i}",
                )
            pairs.append(racers)
        await asyncio.gather(
            *(r.play(timeout) for racers in pairs for r in racers.values()),
            return_exceptions=False,
        )
    finally:
        for proxy in proxies.values():
            proxy.stop()
    all_races, refused, readings = [], {}, 0
    for racers in pairs:
        near_r, far_r = racers["near"], racers["far"]
        readings += len(near_r.results)
        for race in races(near_r, far_r):
            count_refusals(race, refused)
            all_races.append({**race, "near_wins": race["a_wins"], "far_wins": race["b_wins"]})
    return Tally(all_races, refused, readings)
