"""The event pages through Django's test client: create, join by link, live fragment,
seat, projector, organiser tools, exports, in three languages."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from events import services
from events.models import Board, Entrant, Event
from matches.cookies import SEAT_COOKIE

pytestmark = pytest.mark.django_db


def person(name):
    return get_user_model().objects.create(username=name)


def signed_in(client, user):
    client.force_login(user)
    return client


def create_form(**extra):
    data = {
        "name": "Kyoto club night",
        "kind": "knockout",
        "choice": "karuta-competitive",
        "pace": "20",
        "memorise_seconds": "0",
        "division": "",
        "starts_at": (timezone.now() + timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"),
        "tz_offset": "0",
        "rounds_total": "3",
        "break_seconds": "30",
        "minutes": "30",
        "by_link": "on",
    }
    data.update(extra)
    return data


def test_create_join_by_link_play_and_export(client, django_capture_on_commit_callbacks):
    host = person("host")
    assert client.get("/events/new/").status_code == 302  # sign in first
    signed_in(client, host)
    assert "Create" in client.get("/en/events/new/").content.decode()
    refused = client.post("/en/events/new/", create_form(pace="nope"))
    assert refused.status_code == 200 and Event.objects.count() == 0
    response = client.post("/en/events/new/", create_form())
    event = Event.objects.get()
    assert response["Location"] == f"/en/events/{event.code}/"
    assert event.by_link and event.rated and event.settings["pace"] == 20
    page = client.get(f"/en/events/{event.code}/").content.decode()
    assert f"?key={event.join_key}" in page  # the organiser sees the link to share
    assert "Kyoto club night" not in client.__class__().get("/en/events/").content.decode()

    players = [person(n) for n in ("aoi", "ren", "sou", "yui")]
    for p in players:
        c = client.__class__()
        signed_in(c, p)
        c.post(f"/events/{event.code}/join/", {"key": "wrong"})
        assert not Entrant.objects.filter(user=p).exists()
        c.post(f"/events/{event.code}/join/", {"key": event.join_key})
        assert Entrant.objects.filter(user=p, event=event).exists()

    live = client.get(f"/en/events/{event.code}/live/?v=-1")
    assert live.status_code == 200 and "aoi" in live.content.decode()
    version = live["X-Event-Version"]
    assert client.get(f"/en/events/{event.code}/live/?v={version}").status_code == 204

    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now())
    event.rounds.update(due_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert services.start_due_rounds(timezone.now()) == 1
    board = Board.objects.filter(event=event).first()
    owner = board.a.user
    seat_client = signed_in(client.__class__(), owner)
    page = seat_client.get(f"/en/events/{event.code}/").content.decode()
    assert "Your board is ready" in page and f"/play/{board.match_id}/" in page
    taken = seat_client.post(f"/events/{event.code}/board/{board.pk}/seat/")
    assert taken.status_code == 302 and taken["Location"] == f"/play/{board.match_id}/"
    assert taken.cookies[SEAT_COOKIE]["path"] == f"/play/{board.match_id}/"
    # Someone else's board is not yours.
    stranger = signed_in(client.__class__(), person("stranger"))
    assert stranger.post(f"/events/{event.code}/board/{board.pk}/seat/").status_code == 403
    assert stranger.post(f"/events/{event.code}/organise/", {"action": "pause"}).status_code == 403
    projector = client.get(f"/events/{event.code}/board/{board.pk}/projector/")
    assert projector.status_code == 200 and owner.username in projector.content.decode()

    client.post(f"/events/{event.code}/organise/", {"action": "withdraw", "entrant": board.b_id})
    board.refresh_from_db()
    assert board.result == Board.Result.WITHDRAWN

    data = json.loads(client.get(f"/events/{event.code}/results.json").content)
    assert data["event"]["name"] == "Kyoto club night"
    assert {row["handle"] for row in data["standings"]} == {"aoi", "ren", "sou", "yui"}
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/events/{event.code}/results.csv").content.decode("utf-8-sig"))
        )
    )
    assert rows[0][:2] == ["place", "handle"] and len(rows) == 5


@pytest.mark.parametrize(
    ("prefix", "words"),
    [("", "大会"), ("/en", "Events"), ("/zh-hans", "赛事")],
)
def test_the_pages_speak_three_languages(client, prefix, words):
    assert words in client.get(f"{prefix}/events/").content.decode()


@pytest.mark.parametrize(("language", "django_language"), [("ja", "ja"), ("zh_Hans", "zh-hans")])
def test_no_other_catalogue_overrides_an_events_string(language, django_language):
    """Apps listed earlier win a msgid they share (telemetry's 'Events' is イベント, 事件 —
    'an incident' — and it was the events' page title): every string of the events'
    catalogue must come out as that catalogue says. Failed before msgctxt on eight strings."""
    import gettext
    from pathlib import Path

    from django.utils import translation

    mo = Path(services.__file__).parent / "locale" / language / "LC_MESSAGES" / "django.mo"
    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog
    wrong = []
    with translation.override(django_language):
        for key, text in catalogue.items():
            if not key or isinstance(key, tuple):
                continue  # the header; plural forms
            context, _sep, msgid = key.rpartition("\x04")
            got = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
            if got != text:
                wrong.append((msgid, text, got))
    assert wrong == []


@pytest.mark.parametrize(
    ("prefix", "words"),
    [("", "大会"), ("/en", "Events"), ("/zh-hans", "赛事")],
)
def test_every_page_header_links_to_the_events(client, prefix, words):
    html = client.get(f"{prefix}/").content.decode()
    assert f'<a href="{prefix}/events/" data-nav-events>{words}</a>' in html
