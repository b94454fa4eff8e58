from django.shortcuts import render
from django.views.decorators.http import require_safe

from gamekit import registry


@require_safe
def home(request):
    return render(request, "pages/home.html", {"games": registry.all()})


@require_safe
def credits(request):
    return render(request, "pages/credits.html")


def not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    # No context processors that could fail again: a plain render.
    return render(request, "500.html", status=500)
