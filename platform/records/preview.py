"""The share preview (Open Graph / twitter:card summary_large_image): drawn here with Pillow
in the site's own typeface (Shippori Mincho, OFL-1.1, shipped in static/fonts), built once
per record and kept with it. No outside service."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from django.conf import settings
from django.utils import translation
from PIL import Image, ImageDraw, ImageFont

from records.models import Record
from records.summary import summary

SIZE = (1200, 630)
FONT = Path("fonts/shippori-mincho/files/shippori-mincho-japanese-400-normal.woff2")
PAPER, INK, MUTED, LINE = "#fbf7ef", "#1d1b18", "#6b645a", "#d9d0c0"
COLOURS = {
    "red": "#c0392b",
    "blue": "#1f5fa8",
    "green": "#2e7d32",
    "yellow": "#b38600",
    "purple": "#6a3d9a",
    "orange": "#b45309",
    "teal": "#00796b",
    "pink": "#ad1457",
}


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(Path(settings.BASE_DIR) / "static" / FONT), size)


def draw(record: Record) -> bytes:
    """The preview as PNG bytes: the game's name, then each seat's colour, place and score
    (in Japanese, the site's first language: one image serves every visitor)."""
    with translation.override(settings.LANGUAGE_CODE):
        info = summary(record.match)
        site = str(settings.SITE_NAME)
    image = Image.new("RGB", SIZE, PAPER)
    pen = ImageDraw.Draw(image)
    pen.rectangle((24, 24, SIZE[0] - 24, SIZE[1] - 24), outline=LINE, width=4)
    pen.text((80, 70), info["name"], font=font(76), fill=INK)
    pen.text((80, 168), info["line"], font=font(40), fill=MUTED)
    y = 250
    for row in info["rows"][:5]:
        pen.ellipse((84, y + 6, 124, y + 46), fill=COLOURS.get(row["colour"], INK))
        place = "—" if row["place"] is None else f"{row['place']}"
        text = f"{place}  {row['label']}"
        if row["score"] is not None:  # the label, then its figure: "残り枚数 0", not "0残り枚数"
            label = info["score_label"]
            text += f"   {label} {row['score']}" if label else f"   {row['score']}"
        pen.text((148, y), text, font=font(44), fill=INK)
        y += 64
    pen.text((80, SIZE[1] - 92), site, font=font(32), fill=MUTED)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def png(record: Record) -> bytes:
    """The record's preview, drawn the first time and then read as stored."""
    stored = Record.objects.filter(pk=record.pk).values_list("preview", flat=True).first()
    if stored is not None:
        return bytes(stored)
    data = draw(record)
    Record.objects.filter(pk=record.pk).update(preview=data)
    return data
