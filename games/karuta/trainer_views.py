"""The kimariji trainer page (issue 28): drills, spaced repetition graded by speed, the
100-poem grid. Progress lives in the browser (static/js/trainer/store.js); the server only
sends the page and the poems' data, the same for everyone."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.karuta import trainer_data, trainer_voice
from pages import kimariji_list


def messages() -> dict[str, object]:
    """What the trainer's script says, in the page's language ("%(name)s" placeholders)."""
    return {
        "set": {
            "all": _("All 100 poems"),
            "one-kana": _("The 7 one-kana poems (むすめふさほせ)"),
            "length": _("Kimariji of %(n)s kana"),
            "range": _("Poems %(first)s–%(last)s"),
            "colour": _("Five colours: %(name)s"),
            "group": _("Look-alikes: %(prefix)s…"),
            "shrink": _("Shrink together: %(prefix)s…"),
        },
        "setGroups": {
            "basic": _("All and by kimariji"),
            "range": _("Sets of 20"),
            "colour": _("Five-colour sets (goshiki)"),
            "group": _("Look-alike groups"),
        },
        "colours": {
            "青": _("blue"),
            "桃": _("pink"),
            "黄": _("yellow"),
            "緑": _("green"),
            "橙": _("orange"),
        },
        "progress": _("Card %(i)s of %(n)s"),
        "timeLeft": _("%(s)s s left"),
        "promptKimariji": _("Which card? Its kimariji:"),
        "promptTori": _("This card's kimariji, as said:"),
        "typeTori": _("Type the start of its lower verse (kana or romaji)"),
        "typeKimariji": _("Type its kimariji as said (kana or romaji)"),
        "answer": _("Answer"),
        "right": _("Right, in %(s)s s."),
        "wrong": _("Not this one: the card was %(card)s."),
        "rating": {"1": _("again"), "2": _("hard"), "3": _("good"), "4": _("easy")},
        "summary": _("%(right)s of %(n)s right; right answers took %(s)s s on average."),
        "none": _("No card to drill: this set has nothing due or new today."),
        "status": {"new": _("new"), "learning": _("learning"), "known": _("known")},
        "cell": _("Poem %(n)s, %(kimariji)s: %(status)s"),
        "cellSpeed": _("%(s)s s"),
        "missed": _("%(card)s: missed %(misses)s of %(seen)s times"),
        "confused": _("taken for %(card)s"),
        "noMisses": _("Nothing missed yet."),
        "exported": _("Your progress was saved to a file."),
        "imported": _("Progress restored from the file: %(n)s poems."),
        "forgotten": _("Your progress in this browser is forgotten."),
        "forgetConfirm": _("Forget all your progress in this browser? This cannot be undone."),
        "importErrors": {
            "not-json": _(
                "This file could not be read: it is not a trainer export. Nothing was changed."
            ),
            "foreign": _("This file is not a trainer export. Nothing was changed."),
            "version": _(
                "This export comes from another version of the trainer. Nothing was changed."
            ),
            "damaged": _("This export is damaged. Nothing was changed."),
        },
        "sessionOnly": {
            "unavailable": _(
                "This browser does not let the page keep data (private mode?): the trainer works, "
                "but your progress will be lost when you close the page."
            ),
            "full": _(
                "This browser's storage is full: the trainer goes on, but progress from now on "
                "will be lost when you close the page."
            ),
        },
        "dueOne": ngettext("Today's review: %(n)s card", "Today's review: %(n)s cards", 1),
        "dueMany": ngettext("Today's review: %(n)s card", "Today's review: %(n)s cards", 2),
    }


@require_safe
def trainer(request):
    return render(
        request,
        "karuta/trainer.html",
        {
            "trainer_json": kimariji_list.script_json(trainer_data.page_data()),
            "trainer_messages": messages(),
            "trainer_voice": trainer_voice.kimariji_clips(),
        },
    )


@require_safe
def manifest(request):
    """The web app manifest: the trainer installs as an app that opens on its page."""
    data = {
        "name": _("Learn the hundred: kimariji trainer"),
        "short_name": _("Kimariji trainer"),
        "start_url": reverse("karuta:trainer"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbf7ef",
        "theme_color": "#9c2f2f",
        "lang": get_language(),
        "icons": [{"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
