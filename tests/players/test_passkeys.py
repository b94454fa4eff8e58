"""Passkey ceremonies checked by the server with real keys and signatures (a software
authenticator; the browser test uses Chromium's virtual one): sign-up, sign-in, and the
assertions that must be refused — another origin, a sign counter going backwards, a replayed
challenge, an unknown credential, an IP address as the relying party."""

from __future__ import annotations

import json

import pytest

from players.models import DeviceSession, Passkey, Profile
from tests.players.authenticator import SoftAuthenticator, b64

pytestmark = pytest.mark.django_db
ORIGIN, RP_ID = "http://testserver", "testserver"


def post_json(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def sign_up(client, handle="hanako"):
    options = post_json(client, "/account/signup/passkey/options/", {"handle": handle})
    assert options.status_code == 200, options.content
    options = options.json()
    assert options["rp"]["id"] == RP_ID
    assert options["authenticatorSelection"]["residentKey"] == "required"
    authenticator = SoftAuthenticator(ORIGIN, RP_ID)
    done = post_json(client, "/account/signup/passkey/verify/",
                     {"credential": authenticator.register(options)})  # fmt: skip
    assert done.status_code == 200, done.content
    return authenticator, done


def sign_in(client, authenticator, **kwargs):
    options = post_json(client, "/account/signin/passkey/options/", {}).json()
    assert options["rpId"] == RP_ID and options.get("allowCredentials", []) == []
    return post_json(client, "/account/signin/passkey/verify/",
                     {"credential": authenticator.assert_(options, **kwargs)})  # fmt: skip


def test_sign_up_then_sign_in_with_a_passkey(client):
    authenticator, done = sign_up(client, "ｈａｎａｋｏ")
    assert done.json()["next"] == "/account/welcome/"
    profile = Profile.objects.get(handle_key="hanako")
    assert profile.user.username == "hanako" and not profile.user.has_usable_password()
    assert bytes(profile.webauthn_id) == authenticator.user_handle
    passkey = Passkey.objects.get(user=profile.user)
    assert bytes(passkey.credential_id) == authenticator.credential_id
    # The recovery codes are shown once, on the page after sign-up.
    codes = client.get("/account/welcome/")
    assert codes.status_code == 200 and codes.content.decode().count("<code>") == 10
    assert client.get("/account/welcome/").status_code == 302

    client.post("/account/signout/")
    assert client.get("/account/").status_code == 302
    signed_in = sign_in(client, authenticator)
    assert signed_in.status_code == 200, signed_in.content
    assert client.get("/account/").status_code == 200
    passkey.refresh_from_db()
    assert passkey.sign_count == authenticator.counter == 1
    assert DeviceSession.objects.filter(user=profile.user, method="passkey").count() == 1


def test_an_assertion_for_another_origin_is_refused(client):
    authenticator, _ = sign_up(client)
    client.post("/account/signout/")
    refused = sign_in(client, authenticator, origin="https://evil.example")
    assert refused.status_code == 403
    assert refused.json()["error"] == "パスキーを確認できませんでした。もう一度お試しください。"
    assert client.get("/account/").status_code == 302
    assert Passkey.objects.get().sign_count == 0  # nothing recorded for a refused one


def test_a_sign_counter_going_backwards_is_refused(client):
    authenticator, _ = sign_up(client)
    client.post("/account/signout/")
    assert sign_in(client, authenticator, counter=5).status_code == 200
    client.post("/account/signout/")
    # A cloned authenticator would report an older count: refused, the count stays.
    assert sign_in(client, authenticator, counter=3).status_code == 403
    assert sign_in(client, authenticator, counter=5).status_code == 403
    assert client.get("/account/").status_code == 302
    assert Passkey.objects.get().sign_count == 5
    assert sign_in(client, authenticator, counter=6).status_code == 200


def test_a_challenge_works_once_and_unknown_credentials_are_refused(client):
    authenticator, _ = sign_up(client)
    client.post("/account/signout/")
    options = post_json(client, "/account/signin/passkey/options/", {}).json()
    credential = authenticator.assert_(options)
    ok = post_json(client, "/account/signin/passkey/verify/", {"credential": credential})
    assert ok.status_code == 200
    client.post("/account/signout/")
    replay = post_json(client, "/account/signin/passkey/verify/", {"credential": credential})
    assert replay.status_code == 403  # the challenge left the session with its first use
    stranger = SoftAuthenticator(ORIGIN, RP_ID)
    stranger.user_handle = b"x"
    assert sign_in(client, stranger).status_code == 403
    bad = post_json(client, "/account/signin/passkey/verify/", {"credential": "nonsense"})
    assert bad.status_code == 403


def test_a_registration_for_another_origin_makes_no_account(client):
    options = post_json(client, "/account/signup/passkey/options/", {"handle": "taro"}).json()
    credential = SoftAuthenticator(ORIGIN, RP_ID).register(options, origin="http://evil.example")
    refused = post_json(client, "/account/signup/passkey/verify/", {"credential": credential})
    assert refused.status_code == 400 and not Profile.objects.exists()


def test_a_refused_handle_gets_its_message_before_any_ceremony(client):
    refused = post_json(client, "/account/signup/passkey/options/", {"handle": "meijin"})
    assert refused.status_code == 400 and "meijin" in refused.json()["error"]


def test_an_ip_address_host_is_refused_with_a_clear_message(client, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    refused = client.post("/en/account/signin/passkey/options/", "{}",
                          content_type="application/json", HTTP_HOST="127.0.0.1")  # fmt: skip
    assert refused.status_code == 400
    assert "not a numeric address" in refused.json()["error"]


def test_a_second_passkey_is_added_from_the_account_page(client):
    first, _ = sign_up(client)
    options = post_json(client, "/account/passkeys/options/", {}).json()
    assert [c["id"] for c in options["excludeCredentials"]] == [b64(first.credential_id)]
    second = SoftAuthenticator(ORIGIN, RP_ID)
    added = post_json(client, "/account/passkeys/verify/", {"credential": second.register(options)})
    assert added.status_code == 200 and Passkey.objects.count() == 2
    client.post("/account/signout/")
    assert sign_in(client, second).status_code == 200


def test_the_last_way_in_cannot_be_removed(client):
    sign_up(client)
    only = Passkey.objects.get()
    assert client.post(f"/account/passkeys/{only.pk}/remove/").status_code == 302
    assert Passkey.objects.filter(pk=only.pk).exists()  # no password: it stays
    options = post_json(client, "/account/passkeys/options/", {}).json()
    second = SoftAuthenticator(ORIGIN, RP_ID)
    post_json(client, "/account/passkeys/verify/", {"credential": second.register(options)})
    assert client.post(f"/account/passkeys/{only.pk}/remove/").status_code == 302
    assert list(Passkey.objects.values_list("credential_id", flat=True)) == [second.credential_id]


def test_a_credential_registered_twice_makes_no_second_account(client):
    authenticator, _ = sign_up(client, "hanako")
    client.post("/account/signout/")
    options = post_json(client, "/account/signup/passkey/options/", {"handle": "taro"}).json()
    again = post_json(client, "/account/signup/passkey/verify/",
                      {"credential": authenticator.register(options)})  # fmt: skip
    assert again.status_code == 400
    assert list(Profile.objects.values_list("handle_key", flat=True)) == ["hanako"]
