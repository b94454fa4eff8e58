"""The karuta menu: mode, players, CPU level, poems, reading pace, memorisation, penalties."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.karuta import engine
from games.karuta.options import CASUAL_MEMORISE_SECONDS, POEM_SET_SIZE, TEAM_SIZES

MODE_CHOICES = [
    ("competitive", _("Competitive (one against one)")),
    ("chirashi", _("Chirashi (2–4 players)")),
    ("solo", _("Solo practice")),
    ("genpei", _("Genpei-sen (two teams, 2–8 players)")),
]
LEVEL_CHOICES = [
    ("nyumon", _("Novice")),
    ("yowai", _("Weak")),
    ("futsu", _("Normal")),
    ("tsuyoi", _("Strong")),
    ("meijin", _("Master")),
]
POEM_SET_CHOICES = [
    ("", _("All 100 poems")),
    ("1", _("Poems 1–20")),
    ("2", _("Poems 21–40")),
    ("3", _("Poems 41–60")),
    ("4", _("Poems 61–80")),
    ("5", _("Poems 81–100")),
]
PACE_CHOICES = [
    ("slow", _("Slow")),
    ("standard", _("Standard (about 5 kana a second)")),
    ("fast", _("Fast")),
    ("very_fast", _("Very fast")),
]


def pace_choices() -> list[tuple[str, Any]]:
    """The menu's paces. Test settings may add custom ones in kana a second
    (`KARUTA_EXTRA_PACES`, never set in production, config/settings_test.py), so that browser
    tests that play whole games without measuring the pace play at the engine's fastest, 20:
    the reading runs in real time on the server."""
    extra = getattr(settings, "KARUTA_EXTRA_PACES", ())
    # Labelled with the bare number: a test-only option, in no language's words.
    return [*PACE_CHOICES, *((str(kana), str(kana)) for kana in extra)]


def poem_set_sizes() -> list[tuple[str, str]]:
    """Smaller poem sets (the first N poems of the set chosen) that test settings may offer
    (`KARUTA_EXTRA_POEM_SET_SIZES`, never set in production, config/settings_test.py): browser
    tests that play chirashi or solo to the end, where every poem is read in real time, and
    that are about the game's flow rather than its 20 cards, read fewer poems."""
    return [(str(n), str(n)) for n in getattr(settings, "KARUTA_EXTRA_POEM_SET_SIZES", ())]


def pace_setting(chosen: str) -> str | int | float:
    """A chosen pace as the engine takes it: a name, or a number of kana a second."""
    if chosen in dict(PACE_CHOICES):
        return chosen
    number = float(chosen)
    return int(number) if number.is_integer() else number


MEMORISE_CHOICES = [
    ("900", _("15 minutes (official matches)")),
    ("600", _("10 minutes")),
    ("300", _("5 minutes")),
    ("120", _("2 minutes (casual default)")),
    ("60", _("1 minute")),
    ("0", _("Skip")),
]
PENALTY_CHOICES = [
    ("sit_out", _("Sit out the next poem")),
    ("return_card", _("Return one taken card to the field")),
]
PLAYER_CHOICES = [("2", "2"), ("3", "3"), ("4", "4")]
TEAM_SIZE_CHOICES = [(str(n), str(n)) for n in TEAM_SIZES]
OTETSUKI_RULE_CHOICES = [
    ("sides", _("A touch on the side where the card read is not (as in competitive karuta)")),
    ("any", _("A touch on any wrong card")),
]
# Genpei: the seats after yours (seat 0) whose CPU level the menu may set apart.
SEAT_LEVEL_FIELDS = tuple(f"seat_level_{i}" for i in range(1, 2 * max(TEAM_SIZES)))


def _choice_error(what: Any) -> dict[str, Any]:
    return {"invalid_choice": what, "required": what}


class KarutaSettingsForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Way to play"),
        choices=MODE_CHOICES,
        initial="competitive",
        widget=forms.RadioSelect,
        error_messages=_choice_error(
            _("Choose competitive, chirashi, solo practice or genpei-sen.")
        ),
    )
    team_size = forms.TypedChoiceField(
        label=_("Players in your team (Genji), you included"),
        choices=TEAM_SIZE_CHOICES,
        # The menu names each seat's team by these (karuta/menu.js).
        widget=forms.Select(attrs={"data-team-name": _("Genji")}),
        coerce=int,
        required=False,
        empty_value=None,
        initial="2",
        error_messages={"invalid_choice": _("A team has 1 to 4 players.")},
    )
    enemy_size = forms.TypedChoiceField(
        label=_("Players in the other team (Heike)"),
        choices=TEAM_SIZE_CHOICES,
        widget=forms.Select(attrs={"data-team-name": _("Heike")}),
        coerce=int,
        required=False,
        empty_value=None,
        initial="2",
        error_messages={"invalid_choice": _("A team has 1 to 4 players.")},
    )
    otetsuki_rule = forms.ChoiceField(
        label=_("Otetsuki in genpei-sen"),
        choices=OTETSUKI_RULE_CHOICES,
        initial="sides",
        required=False,
        error_messages={"invalid_choice": _("Choose one of the two otetsuki rules.")},
    )
    players = forms.TypedChoiceField(
        label=_("Players in chirashi (you included)"),
        choices=PLAYER_CHOICES,
        coerce=int,
        required=False,
        empty_value=None,
        initial="2",
        error_messages={"invalid_choice": _("Chirashi is played by 2 to 4 players.")},
    )
    cpu_level = forms.ChoiceField(
        label=_("CPU strength"),
        choices=LEVEL_CHOICES,
        initial="futsu",
        error_messages=_choice_error(_("Choose one of the five CPU levels.")),
    )
    poem_set = forms.TypedChoiceField(
        label=_("Poems"),
        choices=POEM_SET_CHOICES,
        coerce=int,
        required=False,
        empty_value=None,
        error_messages={"invalid_choice": _("Choose all 100 poems or one set of 20.")},
    )
    show_kimariji = forms.BooleanField(
        label=_("Show the kimariji under each card"), required=False, initial=False
    )
    pace = forms.ChoiceField(
        label=_("Reading pace"),
        choices=pace_choices,
        initial="standard",
        error_messages=_choice_error(_("Choose one of the listed reading paces.")),
    )
    speech = forms.BooleanField(
        label=_("Read aloud (where the browser can speak Japanese)"),
        required=False,
        initial=True,
    )
    memorise_seconds = forms.TypedChoiceField(
        label=_("Memorisation time"),
        choices=MEMORISE_CHOICES,
        coerce=int,
        initial=str(CASUAL_MEMORISE_SECONDS),
        help_text=_(
            "Official competitive matches give 15 minutes to learn where the cards lie; a "
            "casual game starts after 2 minutes. You can skip the rest at any time."
        ),
        error_messages=_choice_error(_("Choose one of the listed memorisation times.")),
    )
    lower_verse_twice = forms.BooleanField(
        label=_("Read the lower verse twice (chirashi and solo)"),
        help_text=_("Readers commonly read it twice; untick to hear it once."),
        required=False,
        initial=True,
    )
    otetsuki_penalty = forms.ChoiceField(
        label=_("Penalty for otetsuki in chirashi"),
        choices=PENALTY_CHOICES,
        initial="sit_out",
        required=False,
        error_messages={"invalid_choice": _("Choose sitting out or returning a card.")},
    )

    # Genpei: one CPU level per other seat (blank: the CPU strength above), added in __init__.

    # "Practise my slowest 20": the solo result screen posts the poems to practise.
    poems = forms.CharField(required=False, widget=forms.HiddenInput, max_length=400)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if sizes := poem_set_sizes():
            self.fields["poem_set_size"] = forms.TypedChoiceField(
                # A test-only option, in no language's words (as the extra paces).
                label="poem_set_size",
                choices=[("", str(POEM_SET_SIZE)), *sizes],
                coerce=int,
                required=False,
                empty_value=None,
            )
        for index, name in enumerate(SEAT_LEVEL_FIELDS, start=1):
            self.fields[name] = forms.ChoiceField(
                label=_("CPU strength of seat %(n)d") % {"n": index + 1},
                choices=[("", _("As above")), *LEVEL_CHOICES],
                required=False,
                error_messages={"invalid_choice": _("Choose one of the five CPU levels.")},
            )

    def clean_poems(self) -> list[int] | None:
        raw = (self.cleaned_data.get("poems") or "").strip()
        if not raw:
            return None
        try:
            numbers = [int(part) for part in raw.split(",")]
        except ValueError:
            raise forms.ValidationError(
                _("The poem list must be poem numbers."), code="invalid"
            ) from None
        if not all(1 <= n <= 100 for n in numbers) or len(set(numbers)) != len(numbers):
            raise forms.ValidationError(_("The poem list must be poem numbers."), code="invalid")
        return numbers

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.data.get("play_mode") == "solo":
            # "Practise alone" was pressed: that is solo practice whatever way was ticked.
            cleaned["mode"] = "solo"
            self.errors.pop("mode", None)
        mode = cleaned.get("mode")
        if mode == "chirashi" and cleaned.get("players") is None and not self.has_error("players"):
            cleaned["players"] = 2
        if self.errors:
            return cleaned
        try:
            engine.normalize_settings(self.to_settings(cleaned))
        except engine.InvalidSettingsError:
            raise forms.ValidationError(
                _("These settings do not make a game; please check them."), code="invalid"
            ) from None
        return cleaned

    @staticmethod
    def _common(cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """The settings every karuta mode shares."""
        return {
            "cpu_level": cleaned["cpu_level"],
            "poem_set": cleaned.get("poem_set"),
            "show_kimariji": bool(cleaned.get("show_kimariji")),
            "pace": pace_setting(cleaned["pace"]),
            "speech": bool(cleaned.get("speech")),
            "memorise_seconds": cleaned["memorise_seconds"],
            "ready_first": True,  # the first reading waits until the pages can play it
        }

    @staticmethod
    def to_settings(cleaned: Mapping[str, Any]) -> dict[str, Any]:
        """JSON-able engine settings from the form's cleaned data."""
        chosen = KarutaSettingsForm._to_settings(cleaned)
        if chosen.get("poem_set") and cleaned.get("poem_set_size"):  # test settings only
            chosen["poem_set_size"] = cleaned["poem_set_size"]
        return chosen

    @staticmethod
    def _to_settings(cleaned: Mapping[str, Any]) -> dict[str, Any]:
        mode = cleaned["mode"]
        if mode == "genpei":
            teams = [cleaned.get("team_size") or 2, cleaned.get("enemy_size") or 2]
            return {
                **KarutaSettingsForm._common(cleaned),
                "mode": mode,
                "players": sum(teams),
                "teams": teams,
                "otetsuki_rule": cleaned.get("otetsuki_rule") or "sides",
                # Seat 0 is the person who opens the game; the others' levels as chosen.
                "seat_levels": [
                    None,
                    *(
                        cleaned.get(name) or cleaned["cpu_level"]
                        for name in SEAT_LEVEL_FIELDS[: sum(teams) - 1]
                    ),
                ],
            }
        players = {"competitive": 2, "solo": 1}.get(mode) or cleaned.get("players") or 2
        return {
            "mode": mode,
            "players": players,
            "cpu_level": cleaned["cpu_level"],
            "poem_set": cleaned.get("poem_set"),
            "show_kimariji": bool(cleaned.get("show_kimariji")),
            "pace": pace_setting(cleaned["pace"]),
            "speech": bool(cleaned.get("speech")),
            "memorise_seconds": cleaned["memorise_seconds"],
            "ready_first": True,
            "otetsuki_penalty": cleaned.get("otetsuki_penalty") or "sit_out",
            "lower_verse_twice": bool(cleaned.get("lower_verse_twice")),
            # Explicit poems (solo practice only) replace the poem set.
            **(
                {"poems": cleaned["poems"], "poem_set": None}
                if mode == "solo" and cleaned.get("poems")
                else {}
            ),
        }
