"""What the kimariji trainer page embeds: the poems as the kimariji code sees them.

Nothing here is typed in: each poem's compared sounds come from poems.kimariji (the
trainer's script computes kimariji lengths, look-alike groups and shrinking pairs from
them, static/js/trainer/lookalikes.js), the 20-poem sets from the game's options and
the five-colour sets from the project's data file.
"""

from __future__ import annotations

import json

from games.karuta import options
from pages import kimariji_list
from poems import catalogue, kimariji


def goshiki_sets() -> list[dict[str, object]]:
    """The 五色百人一首 sets, in the data file's order: {"name": "青", "poems": [...]}."""
    raw = json.loads((catalogue.DATA_DIR / "goshiki_colors.json").read_text(encoding="utf-8"))
    return [
        {"name": key.split(" ")[0], "poems": sorted(numbers)}
        for key, numbers in raw.items()
        if not key.startswith("_")
    ]


def poem_sets() -> list[list[int]]:
    size = options.POEM_SET_SIZE
    return [list(range((k - 1) * size + 1, k * size + 1)) for k in options.POEM_SETS]


def poems() -> list[dict[str, object]]:
    out = []
    for p in catalogue.poems():
        length = kimariji.static_kimariji(p.number)
        head, tail = kimariji_list.split_printed(p.kami_kana, length)
        out.append(
            {
                "n": p.number,
                "keys": list(kimariji.comparison_keys_of(p.number)),
                "said": list(p.kami_sounds),  # as pronounced, one per printed kana
                "head": head,
                "tail": tail,
                "kami": p.kami,
                "shimo": p.shimo,
                "tori": p.torifuda,
                "poet": p.poet,
            }
        )
    return out


def page_data() -> dict[str, object]:
    return {"poems": poems(), "colours": goshiki_sets(), "sets": poem_sets()}
