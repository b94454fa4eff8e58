"""Creating an event: the organiser's few choices; the game's own form makes the settings."""

from __future__ import annotations

from datetime import UTC, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import gamekit
from events.gamechoice import CHOICES, DIVISIONS, SettingsRefused, build_settings
from events.models import Event

BREAK_CHOICES = [("0", _("No break")), ("30", _("30 seconds")), ("60", _("1 minute")),
                 ("120", _("2 minutes")), ("300", _("5 minutes"))]  # fmt: skip
ARENA_MINUTES = [("10", "10"), ("20", "20"), ("30", "30"), ("45", "45"), ("60", "60")]
MAX_SWISS_ROUNDS = 11


def division_choices() -> list[tuple[str, Any]]:
    def band(low, high):
        if low is None:
            return _("below %(high)d") % {"high": high}
        if high is None:
            return _("%(low)d and above") % {"low": low}
        return _("%(low)d to %(high)d") % {"low": low, "high": high - 1}

    return [("", _("Open to every rating"))] + [
        (key, _("Class %(key)s (%(band)s)") % {"key": key, "band": band(*bounds)})
        for key, bounds in DIVISIONS.items()
    ]


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    kind = forms.ChoiceField(
        label=_("Format"), choices=Event.Kind.choices, initial=Event.Kind.KNOCKOUT
    )
    choice = forms.ChoiceField(label=_("Game"), choices=[(k, v.label) for k, v in CHOICES.items()])
    pace = forms.ChoiceField(label=_("Reading pace"), initial="standard")
    memorise_seconds = forms.ChoiceField(label=_("Memorisation time"), initial="120")
    division = forms.ChoiceField(label=_("Division"), required=False)
    starts_at = forms.DateTimeField(
        label=_("Start time"),
        # To the second if wanted (step 1: a value with seconds is valid in the browser).
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M"
        ),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    # Minutes the browser's clock is behind UTC (Date.getTimezoneOffset), filled in by the
    # page; without it the time is read as UTC.
    tz_offset = forms.IntegerField(
        required=False, min_value=-900, max_value=900, widget=forms.HiddenInput
    )
    rounds_total = forms.TypedChoiceField(
        label=_("Rounds (Swiss)"),
        choices=[(str(n), str(n)) for n in range(1, MAX_SWISS_ROUNDS + 1)],
        coerce=int,
        initial="5",
        required=False,
    )
    break_seconds = forms.TypedChoiceField(
        label=_("Break between rounds"), choices=BREAK_CHOICES, coerce=int, initial="60"
    )
    minutes = forms.TypedChoiceField(
        label=_("Length in minutes (arena)"),
        choices=ARENA_MINUTES,
        coerce=int,
        initial="30",
        required=False,
    )
    by_link = forms.BooleanField(label=_("Only people with the link may join"), required=False)
    unrated = forms.BooleanField(label=_("Unrated (results change no rating)"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The game's own choices, through the plugin contract (its settings form).
        karuta = gamekit.registry.get("karuta").settings_form().fields
        self.fields["pace"].choices = karuta["pace"].choices
        self.fields["memorise_seconds"].choices = karuta["memorise_seconds"].choices
        self.fields["division"].choices = division_choices()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        start = data["starts_at"]
        if timezone.is_naive(start):
            start = start.replace(tzinfo=UTC)
        start += timedelta(minutes=data.get("tz_offset") or 0)
        if start < timezone.now() - timedelta(minutes=1):
            self.add_error("starts_at", _("Choose a time that has not passed."))
        data["starts_at"] = start
        try:
            data["game"], data["settings"] = build_settings(
                data["choice"], data["pace"], data["memorise_seconds"]
            )
        except SettingsRefused:
            self.add_error("pace", _("The game does not accept these settings."))
        kind = data["kind"]
        if CHOICES[data["choice"]].table and kind == Event.Kind.KNOCKOUT:
            self.add_error(
                "kind", _("A table game is played in Swiss rounds or an arena, not a knockout.")
            )
        if kind == Event.Kind.SWISS and not data.get("rounds_total"):
            self.add_error("rounds_total", _("Choose how many rounds."))
        if kind == Event.Kind.ARENA and not data.get("minutes"):
            self.add_error("minutes", _("Choose how long the arena lasts."))
        return data

    def event_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        kind = data["kind"]
        return {
            "name": data["name"],
            "kind": kind,
            "choice": data["choice"],
            "game": data["game"],
            "settings": data["settings"],
            "division": data.get("division") or "",
            "by_link": data["by_link"],
            "rated": not data["unrated"],
            "starts_at": data["starts_at"],
            "rounds_total": data.get("rounds_total") if kind == Event.Kind.SWISS else None,
            "break_seconds": data["break_seconds"],
            "minutes": data.get("minutes") if kind == Event.Kind.ARENA else None,
        }
