"""The intake stores a valid batch whole and refuses anything else whole, naming the bad fields."""

import json

import pytest

import gamekit
from telemetry.models import TelemetryEvent
from tests.telemetry.helpers import ENDPOINT, batch, game_end, game_start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_rate_limit")]


def post(client, body, content_type="application/json"):
    raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
    # Messages follow the reader's language (Japanese by default): read them in English.
    return client.post(ENDPOINT, raw, content_type=content_type, HTTP_ACCEPT_LANGUAGE="en")


def test_a_valid_batch_is_stored_one_row_per_event_with_its_context(client):
    body = batch(game_start(), game_end(), {"kind": "view3d_failure", "game": "karuta"})
    response = post(client, body)
    assert response.status_code == 202, response.content
    assert response.json() == {"accepted": 3}
    rows = list(TelemetryEvent.objects.order_by("pk"))
    assert [r.kind for r in rows] == ["game_start", "game_end", "view3d_failure"]
    assert {r.page_view for r in rows} == {body["page_view"]}
    assert all((r.device, r.browser, r.os, r.memory, r.cores) ==
               ("phone", "firefox", "android", "4gb", "5-8") for r in rows)  # fmt: skip
    assert rows[0].settings == {"players": "3"}
    assert (rows[1].result, rows[1].duration, rows[1].moves) == ("win", "3-10m", "30-99")
    assert rows[2].game == "karuta" and rows[0].received_at is not None


def test_every_kind_of_event_is_accepted(client):
    events = [
        {"kind": "page_load", "game": "bozu", "connection": "4g", "cache": "some"},
        {"kind": "load_failure", "load_failure": "script"},
        game_start(mode="hotseat"),
        game_end(mode="friend", result="resign"),
        {"kind": "room_created", "game": "bozu", "room_origin": "invite_again"},
        {"kind": "room_connect", "game": "bozu", "outcome": "failure"},
        {"kind": "room_spectate", "game": "bozu", "outcome": "success"},
        {"kind": "room_seat", "game": "bozu", "outcome": "success"},
        {"kind": "room_reconnects", "game": "bozu", "reconnects": "2-3"},
        {"kind": "view3d_start", "game": "karuta", "time_to_3d": "1-3s", "render_speed": "50fps+"},
        {"kind": "view3d_abandon", "abandon": "background", "time_to_3d": "3-10s"},
        {"kind": "view3d_failure"},
        {"kind": "render_speed", "render_speed": "lt15fps"},
    ]
    response = post(client, batch(*events))
    assert response.status_code == 202, response.content
    assert TelemetryEvent.objects.count() == len(events)
    # A level other than a game's first (Bozu Mekuri has a single CPU since issue 16).
    start = game_start(game="karuta", cpu_level="meijin", settings={"mode": "competitive"})
    assert post(client, batch(start)).status_code == 202


def test_a_new_game_needs_no_change_here(client):
    # The test settings install a throwaway "coinflip" game: it is accepted as it is.
    response = post(
        client, batch(game_start(game="coinflip", mode="solo", settings={"players": "1"}))
    )
    assert response.status_code == 202, response.content


def assert_refused(response, *fields):
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert set(errors) == set(fields), errors
    assert TelemetryEvent.objects.count() == 0
    return errors


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (game_start(colour="red"), "events[0].colour"),  # unknown
        (game_start(mode="versus"), "events[0].mode"),  # not in the enumeration
        (game_start(mode=1), "events[0].mode"),  # wrong type
        (game_start(mode=["cpu"]), "events[0].mode"),
        (game_start(mode=None), "events[0].mode"),
        (game_end(duration="7 minutes 12 seconds"), "events[0].duration"),  # free text
        (game_end(moves=42), "events[0].moves"),  # a raw number where a bucket belongs
        (game_start(mode="solo"), "events[0].mode"),  # bozu has no solo mode
        (game_start(cpu_level="hard"), "events[0].cpu_level"),  # not one of bozu's levels
        (
            game_start(game="karuta", mode="cpu", cpu_level="beginner", settings={}),
            "events[0].cpu_level",
        ),  # bozu's level, not karuta's
        (game_start(game="chess"), "events[0].game"),  # not a registered game
        (game_start(result="win"), "events[0].result"),  # not part of game_start
        (game_start(settings={"players": "9"}), "events[0].settings.players"),
        (game_start(settings={"players": 3}), "events[0].settings.players"),
        (game_start(settings={"nickname": "taro"}), "events[0].settings.nickname"),
        (game_start(settings="players=3"), "events[0].settings"),
        ({"kind": "game_start", "game": "bozu"}, "events[0].mode"),  # required
        ({"game": "bozu", "mode": "cpu"}, "events[0].kind"),
        ({"kind": "cheat"}, "events[0].kind"),
        ("game_start", "events[0]"),
    ],
)
def test_bad_events_are_refused_naming_the_field(client, event, field):
    assert_refused(post(client, batch(event)), field)


@pytest.mark.parametrize(
    "name",
    ["room_id", "match_id", "seat_token", "move", "board", "url", "page_url", "gpu",
     "webgl_renderer", "ip", "ip_address", "user_agent", "roomId", "inviteUrl"],
)  # fmt: skip
def test_forbidden_fields_are_refused_by_name_anywhere(client, name):
    errors = assert_refused(post(client, batch(game_start(**{name: "x"}))), f"events[0].{name}")
    assert errors[f"events[0].{name}"] == ["This field must never be sent."]
    errors = assert_refused(post(client, batch(**{name: "x"})), name)
    assert errors[name] == ["This field must never be sent."]
    errors = assert_refused(
        post(client, batch(game_start(settings={name: "x"}))), f"events[0].settings.{name}"
    )
    assert errors[f"events[0].settings.{name}"] == ["This field must never be sent."]


def test_every_bad_field_is_listed_at_once(client):
    body = batch(game_start(mode="x"), game_end(room_id="r1"), browser="netscape")
    del body["os"]
    errors = assert_refused(post(client, body), "events[0].mode", "events[1].room_id",
                            "browser", "os")  # fmt: skip
    assert errors["os"] == ["This field is required."]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"page_view": "not-hex"}, "page_view"),
        ({"page_view": "A" * 32}, "page_view"),  # upper case
        ({"page_view": "a" * 31}, "page_view"),
        ({"page_view": "a" * 33}, "page_view"),
        ({"page_view": "a" * 31 + "\n"}, "page_view"),
        ({"page_view": 12345}, "page_view"),
        ({"events": []}, "events"),
        ({"events": [game_start()] * 51}, "events"),
        ({"events": {"kind": "game_start"}}, "events"),
        ({"device": "Pixel 8"}, "device"),
        ({"memory": 8}, "memory"),
    ],
)
def test_bad_batches_are_refused(client, change, field):
    assert_refused(post(client, batch(**change)), field)


@pytest.mark.parametrize(
    "raw",
    ["", "{", "[]", "null", '"text"', '{"page_view": NaN}',
     '{"events": [], "events": []}', b"\xff\xfe{}"],
)  # fmt: skip
def test_malformed_bodies_are_refused(client, raw):
    assert_refused(post(client, raw), "body")


def test_oversized_bodies_are_refused_before_anything_is_stored(client):
    body = batch(game_start())
    body["padding"] = "x" * 20_000
    assert_refused(post(client, body), "body")


def test_other_media_types_are_refused(client):
    response = client.post(ENDPOINT, {"a": "b"}, HTTP_ACCEPT_LANGUAGE="en")  # a form post
    assert response.status_code == 415  # Unsupported Media Type, explained in JSON
    assert response.json() == {"errors": {"body": ["Send JSON (application/json or text/plain)."]}}
    assert TelemetryEvent.objects.count() == 0


def test_beacon_text_plain_bodies_are_accepted(client):
    response = post(client, batch(), content_type="text/plain;charset=UTF-8")
    assert response.status_code == 202


def test_errors_are_in_the_readers_language(client):
    response = client.post(ENDPOINT, "{", content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="ja")  # fmt: skip
    assert response.json()["errors"]["body"] == ["本文が正しい JSON ではありません。"]


def test_get_is_not_allowed(client):
    assert client.get(ENDPOINT).status_code == 405


def test_the_openapi_schema_describes_the_batch(client):
    response = client.get("/api/telemetry/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    spec = json.loads(response.content)
    post_op = spec["paths"][ENDPOINT]["post"]
    body = post_op["requestBody"]["content"]["application/json"]["schema"]
    assert body["additionalProperties"] is False
    kinds = {item["properties"]["kind"]["enum"][0] for item in body["properties"]["events"]["items"]["oneOf"]}  # fmt: skip  # noqa: E501
    assert {"game_start", "game_end", "view3d_failure", "room_connect"} <= kinds
    game_enum = body["properties"]["events"]["items"]["oneOf"][2]["properties"]["game"]["enum"]
    # Every registered game (the test settings add throwaway ones), nothing else.
    assert set(game_enum) == {game.slug for game in gamekit.registry.all()}
    assert {"bozu", "karuta", "coinflip"} <= set(game_enum)
    assert set(post_op["responses"]) >= {"202", "400", "429"}
