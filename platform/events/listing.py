"""The live fragment's long lists, rendered in Python: a standings table of 500 rows or a
bracket of 255 boards through the template engine takes most of a second here, the same
HTML built with format_html a few milliseconds (bench/bench_events.py "page")."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from events.standings import BoardView, Row

HIDDEN = '<span class="visually-hidden"> {}</span>'


def _number(value) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _organise_form(action_url: str, csrf: str, name: str, value: int, action: str, label: str,
                   who: str) -> SafeString:  # fmt: skip
    return format_html(
        '<form method="post" action="{}" class="inline">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
        '<input type="hidden" name="{}" value="{}">'
        '<button name="action" value="{}">{}' + HIDDEN + "</button></form>",
        action_url, csrf, name, value, action, label, who,
    )  # fmt: skip


def _pair_parts(b: BoardView) -> tuple[str, list]:
    vs = f"{b.a} – {b.b}" if b.b else b.a
    parts = [format_html('<span class="{}">{}</span>', "won" if b.winner == b.a else "", b.a)]
    if b.b:
        parts.append(format_html(
            ' <span class="vs">–</span> <span class="{}">{}</span>',
            "won" if b.winner == b.b else "", b.b,
        ))  # fmt: skip
    else:
        parts.append(format_html(' <span class="bye">({})</span>', _("bye")))
    return vs, parts


def _table_parts(b: BoardView) -> tuple[str, list]:
    """A table: every seat's handle (the CPU's named so), its place and points once played;
    genpei's two teams joined by '&' and set against each other."""
    cpu = _("CPU")
    names = [seat.handle or cpu for seat in b.table]
    seats = []
    for seat, name in zip(b.table, names, strict=True):
        if seat.place is None:
            seats.append(format_html('<span class="seat">{}</span>', name))
        else:
            seats.append(format_html(
                '<span class="seat{}">{} <span class="place">({})</span></span>',
                " won" if seat.place == 1 else "", name,
                _("place %(place)s, %(points)s pt") % {"place": seat.place, "points": seat.points},
            ))  # fmt: skip
    if b.table[0].team is not None:
        split = sum(1 for seat in b.table if seat.team == 0)
        joiner = mark_safe(" & ")
        sides = [joiner.join(seats[:split]), joiner.join(seats[split:])]
        vs = " – ".join(" & ".join(names[i] for i in side) for side in
                        (range(split), range(split, len(names))))  # fmt: skip
        return vs, [mark_safe(sides[0] + ' <span class="vs">–</span> ' + sides[1])]
    return " · ".join(names), [mark_safe(" · ".join(seats))]


def boards_html(code: str, boards: list[BoardView], organiser: bool, csrf: str) -> SafeString:
    organise = reverse("events:organise", args=[code])
    items = []
    for b in boards:
        vs, parts = _table_parts(b) if b.table else _pair_parts(b)
        if b.result == "pending":
            parts.append(format_html(" {}", _("playing")))
        elif b.result == "forfeit":
            parts.append(format_html(' <span class="outcome">{}</span>', _("by forfeit")))
        elif b.result == "withdrawn":
            parts.append(format_html(' <span class="outcome">{}</span>', _("opponent withdrawn")))
        if b.match_id:
            watch = _("Watch") if b.result == "pending" else pgettext("event", "Replay")
            parts.append(format_html(
                ' <a href="{}">{}' + HIDDEN + "</a>",
                reverse("matches:play", args=[b.match_id]), watch, vs,
            ))  # fmt: skip
            if b.result == "pending":
                parts.append(format_html(
                    ' <a href="{}">{}' + HIDDEN + "</a>",
                    reverse("events:projector", args=[code, b.id]), _("Projector"), vs,
                ))  # fmt: skip
                if organiser:
                    parts.append(mark_safe(" ") + _organise_form(
                        organise, csrf, "board", b.id, "repair", _("Re-pair"), vs
                    ))  # fmt: skip
        items.append(
            format_html(
                '<li class="board-row result-{}">{}</li>', b.result, mark_safe("".join(parts))
            )
        )
    return mark_safe("".join(items))


def rows_html(code: str, kind: str, rows: list[Row], organiser: bool, finished: bool,
              csrf: str) -> SafeString:  # fmt: skip
    """The standings' rows: plain strings, each handle escaped once (the hot path of a
    500-entrant page)."""
    organise = reverse("events:organise", args=[code])
    fire = str(format_html(
        ' <span title="{0}">🔥<span class="visually-hidden">{0}</span></span>',
        _("On a streak: results count double"),
    ))  # fmt: skip
    withdrawn = str(format_html(" ({})", _("withdrawn")))
    label = escape(pgettext("event", "Withdraw"))
    out = []
    for r in rows:
        handle = escape(r.handle)
        marks = (fire if r.on_fire else "") + (withdrawn if r.withdrawn else "")
        cells = [str(r.place), handle + marks, str(round(r.rating))]
        if kind != "knockout":
            cells.append(_number(r.score))
        if kind == "swiss":
            cells += [_number(r.buchholz), _number(r.sonneborn_berger)]
        if kind == "tables":
            cells += [str(r.wins), str(r.games)]
        if kind == "arena":
            cells.append(str(r.games))
        if organiser:
            cells.append(
                f'<form method="post" action="{organise}" class="inline">'
                f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(csrf)}">'
                f'<input type="hidden" name="entrant" value="{r.entrant_id}">'
                f'<button name="action" value="withdraw">{label}'
                f'<span class="visually-hidden"> {handle}</span></button></form>'
                if not r.withdrawn and not finished else ""
            )  # fmt: skip
        row_class = ' class="withdrawn"' if r.withdrawn else ""
        out.append(f"<tr{row_class}><td>" + "</td><td>".join(cells) + "</td></tr>")
    return mark_safe("".join(out))  # every value above is a number or escaped
