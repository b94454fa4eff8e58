"""The site plus one tiny test-only game page wired to telemetry with the one-line include.

Used as ROOT_URLCONF by tests/browser/telemetry_settings.py for the browser tests.
"""

from django.http import HttpResponse
from django.template import engines
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns
from gamekit import registry

PAGE = """{% extends "base.html" %}{% load static %}
{% block content %}
<h1>Coin flip (telemetry test page)</h1>
{% include "telemetry/switch.html" with game=game %}
<button id="start">start</button> <button id="end">end</button> <button id="fail3d">3D</button>
{% endblock %}
{% block scripts %}<script type="module" nonce="{{ request.csp_nonce }}">
import * as telemetry from "{% static 'js/telemetry.js' %}";
telemetry.expect3d();
document.getElementById("start").onclick = () =>
  telemetry.gameStart("solo", { settings: { players: "1" } });
document.getElementById("end").onclick = () =>
  telemetry.gameEnd("solo", "win", { moves: 12, durationMs: 200000 });
document.getElementById("fail3d").onclick = () => telemetry.view3dFailure();
document.body.dataset.ready = "yes";
</script>{% endblock %}
"""


def game_page(request):
    template = engines["django"].from_string(PAGE)
    return HttpResponse(template.render({"game": registry.get("coinflip")}, request))


urlpatterns = [path("telemetry-test/", game_page), *site_urlpatterns]
