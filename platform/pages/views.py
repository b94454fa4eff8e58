from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import i18n as i18n_views
from django.views.decorators.http import require_POST, require_safe

from gamekit import registry
from pages import kimariji_list
from poems import daily


def trainer_url() -> str | None:
    """The kimariji trainer's page, when the karuta game (which has it) is installed."""
    try:
        return reverse("karuta:trainer")
    except NoReverseMatch:
        return None


@require_safe
def home(request):
    number = daily.poem_of_day(daily.japan_date(timezone.now()))
    context = {
        "games": registry.all(),
        "daily": kimariji_list.poem_view(number),
        "daily_nearest": [kimariji_list.poem_view(n) for n in daily.nearest(number)],
        "trainer_url": trainer_url(),
        "trainer_messages": {
            "one": ngettext("Today's review: %(n)s card", "Today's review: %(n)s cards", 1),
            "many": ngettext("Today's review: %(n)s card", "Today's review: %(n)s cards", 2),
        },
    }
    return render(request, "pages/home.html", context)


@require_safe
def credits(request):
    return render(request, "pages/credits.html")


# The JSON API answers every error in JSON, its own refusals' shape: {"errors": {...}}.
API_PREFIX = "/api/"


def _api_error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"errors": {"request": [message]}}, status=status)


def not_found(request, exception=None):
    if request.path.startswith(API_PREFIX):
        return _api_error(404, "Not found.")
    return render(request, "404.html", status=404)


def server_error(request):
    if request.path.startswith(API_PREFIX):
        return _api_error(500, "Server error.")  # no detail: it is in the server's log
    # No context processors that could fail again: a plain render.
    return render(request, "500.html", status=500)


@require_safe
def kimariji(request):
    """All 100 poems by kimariji length, with the in-page demo of shrinking kimariji."""
    messages = {
        "status": _(
            "Poems marked as read: {read}. Poems now decided sooner than at the start: {shorter}."
        ),
        "count": _("({n} kana)"),
        "was": _("at the start: {n} kana"),
    }
    return render(
        request,
        "pages/kimariji.html",
        {
            "groups": kimariji_list.groups(),
            "demo_json": kimariji_list.script_json(kimariji_list.demo_data()),
            "demo_messages": messages,
        },
    )


@require_POST
def set_language(request):
    """Django's set_language, run in the language of the page it returns to.

    The view lives outside i18n_patterns, so it runs in the default language and cannot
    resolve /en/… or /zh-hans/… to translate the address back: choosing 日本語 on an
    English page returned to the English page. Resolving `next` in its own language lets
    translate_url find the same page in the chosen one.
    """
    next_url = request.POST.get("next") or request.META.get("HTTP_REFERER") or ""
    here = translation.get_language_from_path(urlsplit(next_url).path)
    with translation.override(here or settings.LANGUAGE_CODE):
        return i18n_views.set_language(request)


ROBOTS = """\
User-agent: *
Disallow: /admin/
Disallow: /staff/
Disallow: /api/
Disallow: /play/
"""


@require_safe
def robots_txt(request):
    """The pages are for everyone; admin, the API and individual matches are not."""
    return HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")


@require_safe
def favicon_ico(request):
    """Browsers and crawlers ask for /favicon.ico whatever the page says: the site icon."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
