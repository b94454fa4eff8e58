"""Site-wide middleware."""

from django.middleware.locale import LocaleMiddleware
from django.utils import translation

# Paths outside i18n_patterns that show pages to people: they follow the visitor's chosen
# language (the language cookie, then the browser's Accept-Language), not the default.
UNPREFIXED_PAGES = ("/play/",)


class SiteLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware gives every unprefixed path the default language when
    prefix_default_language is False. The play pages live at /play/<id>/ for every
    language (their seat cookie and WebSocket share that path), so they use the
    language the visitor chose on the menu instead (matches.views sets the cookie)."""

    def process_request(self, request):
        if request.path_info.startswith(UNPREFIXED_PAGES):
            translation.activate(translation.get_language_from_request(request, check_path=False))
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)
