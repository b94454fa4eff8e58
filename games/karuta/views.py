"""The karuta page: the cards, reading, chirashi, genpei-sen, competitive play, kimariji, tips, FAQ.

The menu (the settings form posting to the match server) opens the page; the play
screens are karuta/play.html with static/js/karuta/play.js.
"""

from __future__ import annotations

import itertools

from django.shortcuts import render
from django.views.decorators.http import require_safe

import gamekit
from games.karuta import cpu, diagrams, faq, figures, genpei_figures
from games.karuta.forms import KarutaSettingsForm
from pages import kimariji_list
from poems import catalogue

# How players remember the seven one-kana poems. The poems themselves are computed;
# this only orders them (tests check it names exactly the computed kimariji).
ONE_KANA_MNEMONIC = "むすめふさほせ"


@require_safe
def index(request):
    groups = kimariji_list.groups()
    return render(
        request,
        "karuta/index.html",
        {
            "game": gamekit.registry.get("karuta"),
            "settings_form": KarutaSettingsForm(),
            "sample": kimariji_list.poem_view(1),
            "joka_kanji": catalogue.JOKA_KANJI,
            "joka_kana": catalogue.JOKA_KANA,
            "cases": diagrams.CASES,
            "kimariji_counts": [(length, len(poems)) for length, poems in groups],
            "one_kana": sorted(groups[0][1], key=lambda p: ONE_KANA_MNEMONIC.index(p.kimariji)),
            # ちぎりおきし before and after ちぎりきな has been read; あさぼらけ after its twin.
            "chigiri_before": kimariji_list.poem_view(75),
            "chigiri_after": kimariji_list.poem_view(75, read=[42]),
            "chihaya": kimariji_list.poem_view(17),
            "chigirikina": kimariji_list.poem_view(42),
            "asaborake_before": kimariji_list.poem_view(31),
            "asaborake_after": kimariji_list.poem_view(31, read=[64]),
            "asaborake_u": kimariji_list.poem_view(64),
            "cpu_figures": cpu_figures(),
            "genpei_figures": genpei_page_figures(),
            "faq": faq.faq_items(),
            "faq_json": kimariji_list.script_json(faq.faq_jsonld()),
        },
    )


def cpu_figures() -> dict:
    """What the reading section says about the CPUs, from `karuta_ladder --write`'s output."""
    table = figures.load_table()
    rates = table["win_rate"]
    levels = cpu.LEVEL_ORDER
    adjacent = [rates[upper][lower] for lower, upper in itertools.pairwise(levels)]
    return {
        "games": f"{table['games_per_pair']:,}",
        "meijin": figures.touch_seconds("meijin"),
        "nyumon": figures.touch_seconds("nyumon", "after_verse"),
        "adjacent": f"{min(adjacent) * 100:.0f}–{max(adjacent) * 100:.0f}%",
    }


def genpei_page_figures() -> dict:
    """What the genpei section says about game length and balance, from `karuta_genpei
    --write`'s output (data/genpei.json)."""
    table = genpei_figures.STORED.load()
    master = table["match_ups"]["meijin2_v_futsu2"]["first_win_rate"]
    return {
        "games": f"{table['games']:,}",
        "lengths": [
            {"readings": f"{row['readings']:g}", "minutes": f"{row['minutes']:.0f}"}
            for row in genpei_figures.lengths()
        ],
        "master": f"{master * 100:.0f}%",
    }
