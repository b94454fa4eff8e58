"""Language alternates for search engines: <link rel="alternate" hreflang=...>."""

from django import template
from django.conf import settings
from django.urls import translate_url
from django.utils.html import format_html_join

register = template.Library()

# BCP 47 spelling of Django's language codes.
HREFLANG = {"zh-hans": "zh-Hans"}


def alternates(request) -> list[tuple[str, str]]:
    """(hreflang, absolute URL) of the current page in every language, then x-default."""
    here = request.build_absolute_uri(request.path)
    links = [
        (HREFLANG.get(code, code), translate_url(here, code)) for code, _ in settings.LANGUAGES
    ]
    links.append(("x-default", translate_url(here, settings.LANGUAGE_CODE)))
    return links


@register.simple_tag(takes_context=True)
def hreflang_links(context) -> str:
    request = context.get("request")
    if request is None:
        return ""
    return format_html_join(
        "\n  ",
        '<link rel="alternate" hreflang="{}" href="{}">',
        alternates(request),
    )
