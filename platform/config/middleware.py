"""Site-wide middleware."""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.middleware.locale import LocaleMiddleware
from django.urls import is_valid_path
from django.utils import translation
from django.utils.cache import patch_vary_headers

# Paths outside i18n_patterns that show pages to people: they follow the visitor's chosen
# language (the language cookie, then the browser's Accept-Language), not the default.
UNPREFIXED_PAGES = ("/play/", "/records/")


class SiteLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware gives every unprefixed path the default language when
    prefix_default_language is False. Two changes:

    - The play pages live at /play/<id>/ for every language (their seat cookie and
      WebSocket share that path), so they use the language the visitor chose instead.
    - A first visit (no language cookie yet) to an unprefixed page from a browser that
      prefers another of our languages is sent to that language's address, /en/… or
      /zh-hans/…. Once the visitor picks a language, the cookie decides, so choosing
      Japanese on /en/ stays on Japanese pages.
    """

    def process_request(self, request):
        if request.path_info.startswith(UNPREFIXED_PAGES):
            translation.activate(translation.get_language_from_request(request, check_path=False))
            request.LANGUAGE_CODE = translation.get_language()
            return None
        super().process_request(request)
        return self._redirect_first_visit(request)

    def _redirect_first_visit(self, request):
        if request.method not in ("GET", "HEAD"):
            return None
        if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
            return None
        if translation.get_language_from_path(request.path_info) is not None:
            return None  # the address names its language already
        preferred = translation.get_language_from_request(request, check_path=False)
        if preferred == settings.LANGUAGE_CODE:
            return None
        urlconf = getattr(request, "urlconf", None)
        with translation.override(settings.LANGUAGE_CODE):
            if not is_valid_path(request.path_info, urlconf):
                return None
        with translation.override(preferred):
            # Only pages inside i18n_patterns have a prefixed twin (not /admin/, /api/ …).
            target = f"/{preferred}{request.path_info}"
            if not is_valid_path(target, urlconf):
                return None
        query = request.META.get("QUERY_STRING", "")
        response = HttpResponseRedirect(f"{target}?{query}" if query else target)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response

    def process_response(self, request, response):
        response = super().process_response(request, response)
        if translation.get_language_from_path(request.path_info) is None:
            # The same unprefixed address answers or redirects by header and cookie.
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response
