"""{% offline_script %}: the offline note's script on every page; on the pages the service
worker keeps (pages.offline), it also installs the worker."""

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html

from pages.offline import offline_paths

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_script(context) -> str:
    request = context.get("request")
    src = static("js/offline.js")
    if request is not None and request.path in offline_paths():
        worker = reverse("service_worker")
        return format_html(
            '<script type="module" src="{}" data-offline-worker="{}"></script>', src, worker
        )
    return format_html('<script type="module" src="{}"></script>', src)
