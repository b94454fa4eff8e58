"""The record pages: made only for a finished match, at an address of their own, never a
seat token or invite code; bad ids are a 404 in the visitor's language; only a seat of the
match may delete or keep it."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.test import Client

from matches import services
from matches.cookies import SEAT_COOKIE
from matches.models import Match
from records.models import Record
from tests.records.play import Clock, play_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def instant_cpu(settings):
    settings.MATCHES_CPU_DELAY_MS = 0


def friend_match(slug="bakudan", game_settings=None):
    match, token = services.create_match(slug, game_settings or {"players": 2}, "friend")
    match = Match.objects.get(pk=match.id)
    _m, _seat, other = services.join(match.invite_code)
    return Match.objects.get(pk=match.id), token, other


def seated(token, match) -> Client:
    client = Client()
    client.cookies[SEAT_COOKIE] = token
    client.cookies[SEAT_COOKIE]["path"] = f"/play/{match.id}/"
    return client


def open_record(client, match):
    return client.get(f"/play/{match.id}/record/")


def test_a_running_match_has_no_record_and_its_page_reveals_no_hand(monkeypatch):
    match, token, _other = friend_match()
    assert open_record(seated(token, match), match).status_code == 404
    assert open_record(Client(), match).status_code == 404
    assert not Record.objects.exists()


def finish(monkeypatch, slug="bakudan", game_settings=None):
    match, token, other = friend_match(slug, game_settings)
    play_match(match.id, [0, 1], Clock(monkeypatch), seed=3)
    return Match.objects.get(pk=match.id), token, other


def test_the_record_lives_at_its_own_address_and_holds_no_token_or_invite(monkeypatch):
    match, token, other = finish(monkeypatch)
    response = open_record(seated(token, match), match)
    assert response.status_code == 302
    address = response["Location"]
    record = Record.objects.get(match=match)
    assert address == f"/records/{record.pk}/"
    assert str(match.id) not in address and match.id.hex not in address
    assert open_record(Client(), match)["Location"] == address  # one record per match
    page = Client().get(address)
    body = page.content.decode()
    export = Client().get(f"{address}record.json")
    exported = export.content.decode()
    hashes = [seat.token_hash for seat in match.seats.all()]
    for secret in (token, other, match.invite_code, str(match.id), match.id.hex, *hashes):
        assert secret not in body and secret not in exported
    assert 'name="twitter:card" content="summary_large_image"' in body
    assert re.search(
        r'property="og:image" content="http://testserver/records/[^"]+/preview.png"', body
    )
    document = json.loads(exported)
    assert document["schema"] == "hyakunin-record/1" and document["replayable"]
    # Bakudan's hidden information is shown once the match is over: every hand, the deck.
    assert all("hands" in step["view"] and "deck" in step["view"] for step in document["steps"])


def test_the_export_is_gzip_for_clients_that_take_it(monkeypatch):
    match, _token, _other = finish(monkeypatch, "bozu", {"players": 2})
    address = open_record(Client(), match)["Location"]
    packed = Client().get(f"{address}record.json", headers={"accept-encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed.content))["game"] == "bozu"


def test_the_preview_is_a_png_built_once(monkeypatch):
    match, _token, _other = finish(monkeypatch, "bozu", {"players": 2})
    address = open_record(Client(), match)["Location"]
    first = Client().get(f"{address}preview.png")
    assert first["Content-Type"] == "image/png" and first.content[:8] == b"\x89PNG\r\n\x1a\n"
    from records import preview

    monkeypatch.setattr(preview, "draw", lambda record: pytest.fail("drawn twice"))
    assert Client().get(f"{address}preview.png").content == first.content


@pytest.mark.parametrize(
    "path",
    [
        "/records/nope/",
        f"/records/{'A' * 22}/",
        f"/records/{'A' * 22}/record.json",
        "/records/%27%3B--/",
        f"/records/{'A' * 22}/preview.png",
    ],
)
def test_unknown_or_malformed_ids_are_a_404_in_the_visitors_language(path):
    response = Client().get(path, headers={"accept-language": "en"})
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
    japanese = Client().get(path, headers={"accept-language": "ja"})
    assert japanese.status_code == 404 and "ページ" in japanese.content.decode()


def test_only_a_seat_of_that_match_may_delete_or_keep_its_record(monkeypatch):
    match, _token, other = finish(monkeypatch)
    stranger = Client(enforce_csrf_checks=False)
    address = open_record(stranger, match)["Location"]
    record_id = address.split("/")[2]
    assert stranger.post(f"{address}delete/").status_code == 403
    assert stranger.post(f"{address}keep/").status_code == 403
    # A seat of another finished match holds no right over this record.
    match2, token2, _o2 = finish(monkeypatch, "bozu", {"players": 2})
    elsewhere = seated(token2, match2)
    open_record(elsewhere, match2)
    elsewhere.cookies["record_seat"] = elsewhere.cookies.get("record_seat").value
    assert elsewhere.post(f"{address}delete/").status_code == 403
    assert Record.objects.filter(pk=record_id).exists()
    # The second player of this match may: keep it longer, then delete it.
    player = seated(other, match)
    assert open_record(player, match)["Location"] == address
    kept = player.post(f"{address}keep/", headers={"accept": "application/json"})
    assert kept.status_code == 200 and Record.objects.get(pk=record_id).keep_until is not None
    gone = player.post(f"{address}delete/", headers={"accept": "application/json"})
    assert gone.json() == {"deleted": True}
    assert not Match.objects.filter(pk=match.id).exists()
    assert Client().get(address).status_code == 404


@pytest.mark.parametrize(
    ("prefix", "phrases"),
    [
        ("/", ["対局の記録", "30 日後", "365 日", "席のトークン"]),
        ("/en/", ["Match records", "30 days after", "365 days", "no seat tokens"]),
        ("/zh-hans/", ["对局记录", "30 天", "365 天", "座位令牌"]),
    ],
)
def test_the_privacy_page_says_what_a_record_holds_and_how_long(prefix, phrases):
    html = Client().get(f"{prefix}privacy/").content.decode()
    for phrase in phrases:
        assert phrase in html, phrase


@pytest.mark.parametrize(
    ("language", "phrases"),
    [
        ("ja", ["対局の記録", "最初", "リンクをコピー"]),
        ("en", ["a match record", "First", "Copy link"]),
        ("zh-hans", ["对局记录", "最初", "复制链接"]),
    ],
)
def test_the_record_page_in_each_language(language, phrases, monkeypatch):
    match, _token, _other = finish(monkeypatch, "bozu", {"players": 2})
    address = open_record(Client(), match)["Location"]
    html = Client().get(address, headers={"accept-language": language}).content.decode()
    assert f'<html lang="{language}">' in html
    for phrase in phrases:
        assert phrase in html, phrase


def test_a_log_todays_engine_cannot_replay_says_so_clearly(monkeypatch):
    """A match stored before a rule change: its record says it cannot be replayed, and the
    page still opens (with that message) instead of failing."""
    from matches.models import Action

    match, _token, _other = finish(monkeypatch, "bozu", {"players": 2})
    row = Action.objects.filter(match=match, kind="game").order_by("seq").first()
    Action.objects.filter(pk=row.pk).update(action={"type": "an old move"})
    address = open_record(Client(), match)["Location"]
    document = Client().get(f"{address}record.json").json()
    assert document["replayable"] is False
    assert "steps" not in document and document["reason"]
    page = Client().get(address)
    assert page.status_code == 200 and "data-replay-error" in page.content.decode()


def test_a_stored_replay_of_an_older_schema_is_rebuilt_from_the_log(monkeypatch):
    from records import models, replay

    match, _token, _other = finish(monkeypatch, "bozu", {"players": 2})
    address = open_record(Client(), match)["Location"]
    first = Client().get(f"{address}record.json").json()
    calls = []
    real = replay.build
    monkeypatch.setattr(replay, "build", lambda m: calls.append(1) or real(m))
    assert Client().get(f"{address}record.json").json() == first
    assert calls == []  # built once, then read as stored
    monkeypatch.setattr(models, "REPLAY_VERSION", models.REPLAY_VERSION + 1)
    from records import store

    monkeypatch.setattr(store, "REPLAY_VERSION", models.REPLAY_VERSION)
    assert Client().get(f"{address}record.json").json() == first
    assert calls == [1]


def test_the_preview_names_each_score_before_its_figure(monkeypatch):
    """The share image reads 'label figure' (残り枚数 0), not '0残り枚数' (issue 43)."""
    karuta = {"mode": "chirashi", "players": 2, "memorise_seconds": 0, "poem_set": 1}
    match, _token, _other = finish(monkeypatch, "karuta", karuta)
    monkeypatch.undo()
    from PIL import ImageDraw

    from records import preview
    from records.summary import summary

    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text
    monkeypatch.setattr(
        ImageDraw.ImageDraw,
        "text",
        lambda self, xy, text, *a, **k: drawn.append(text) or real(self, xy, text, *a, **k),
    )
    open_record(Client(), match)
    preview.draw(Record.objects.get(match=match))
    info = summary(match)
    label = str(info["score_label"])
    rows = [t for t in drawn if label in t]
    assert len(rows) == 2, drawn
    for row, seat in zip(rows, info["rows"], strict=True):
        assert row.endswith(f"{label} {seat['score']}"), row
