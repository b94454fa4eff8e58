import importlib.util

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from gamekit import registry
from pages import offline
from pages import views as pages_views
from pages.health import healthz
from players.profile import profile
from records import views as records_views
from telemetry.urls import api_patterns, page_patterns, staff_patterns


def game_urlpatterns():
    """Each registered game with a urls.py gets /<slug>/: adding a game changes nothing here."""
    patterns = []
    for game in registry.all():
        module = f"{game.app_module}.urls"
        if importlib.util.find_spec(module) is not None:
            patterns.append(path(f"{game.slug}/", include((module, game.slug))))
    return patterns


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("robots.txt", pages_views.robots_txt, name="robots_txt"),
    path("favicon.ico", pages_views.favicon_ico, name="favicon_ico"),
    # At the root, so its scope covers every page it keeps offline (pages.offline).
    path("sw.js", offline.service_worker, name="service_worker"),
    # The language switch posts here (pages.views.set_language wraps Django's view).
    path("i18n/setlang/", pages_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("api/telemetry/", include(api_patterns)),
    path("staff/telemetry/", include(staff_patterns)),
    # Outside i18n_patterns: the seat cookie is scoped to /play/<match>/ in every language.
    # A finished match's record: under the match's path, so the seat cookie comes along.
    path("play/<uuid:match_id>/record/", records_views.open_record, name="record_of_match"),
    path("play/", include("matches.urls")),
    path("records/", include("records.urls")),
]
urlpatterns += i18n_patterns(
    path("", include("pages.urls")),
    path("lobby/", include("lobby.urls")),
    path("events/", include("events.urls")),
    path("", include(page_patterns)),
    path("ratings/", include("ratings.urls")),
    path("account/", include("players.urls")),
    path("@/<str:handle>/", profile, name="profile"),
    *game_urlpatterns(),
    prefix_default_language=False,
)

handler404 = "pages.views.not_found"
handler500 = "pages.views.server_error"
