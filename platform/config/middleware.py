"""Site-wide middleware."""

from django.conf import settings
from django.http import HttpResponseRedirect
from django.middleware.locale import LocaleMiddleware
from django.urls import is_valid_path
from django.utils import translation
from django.utils.cache import patch_vary_headers

# Paths outside i18n_patterns that show pages to people: one address for every language.
UNPREFIXED_PAGES = ("/play/", "/records/")


class SiteLocaleMiddleware(LocaleMiddleware):
    """One rule for every address (docs/architecture.md, "Languages"): an address that
    names its language (/en/…, /zh-hans/…) is shown in it; an unprefixed one follows the
    visitor's choice — the language cookie, else the browser's Accept-Language, else
    Japanese. Django's LocaleMiddleware would give every unprefixed path the default
    language (prefix_default_language is False), so:

    - The play pages and records live at /play/<id>/ and /records/… for every language
      (their seat cookie and WebSocket share that path): shown in the visitor's language.
    - An unprefixed page that has a twin in the visitor's language, when that is not
      Japanese, is sent there (/en/…, /zh-hans/…), so the address then names it: the cookie
      set by the switch counts as much as Accept-Language does on a first visit, and
      choosing Japanese on /en/ stays on Japanese pages.
    - An unprefixed address that is no page (a 404) answers in the visitor's language too.
    """

    def process_request(self, request):
        if request.path_info.startswith(UNPREFIXED_PAGES):
            self._follow_visitor(request)
            return None
        super().process_request(request)
        if translation.get_language_from_path(request.path_info) is not None:
            return None  # the address names its language
        redirect = self._redirect_to_choice(request)
        if redirect is None and not self._is_page(request, request.path_info):
            self._follow_visitor(request)  # a 404 speaks as /play/ would
        return redirect

    @staticmethod
    def _follow_visitor(request):
        translation.activate(translation.get_language_from_request(request, check_path=False))
        request.LANGUAGE_CODE = translation.get_language()

    @staticmethod
    def _is_page(request, path, language=None):
        with translation.override(language or settings.LANGUAGE_CODE):
            return is_valid_path(path, getattr(request, "urlconf", None))

    def _redirect_to_choice(self, request):
        if request.method not in ("GET", "HEAD"):
            return None
        preferred = translation.get_language_from_request(request, check_path=False)
        if preferred == settings.LANGUAGE_CODE or not self._is_page(request, request.path_info):
            return None
        # Only pages inside i18n_patterns have a prefixed twin (not /admin/, /api/ …).
        target = f"/{preferred}{request.path_info}"
        if not self._is_page(request, target, preferred):
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
