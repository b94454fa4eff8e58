"""The daily purge: expired sessions, their device rows, spent or expired one-time codes."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from players import accounts, tasks
from players.models import DeviceSession, SignInCode

pytestmark = pytest.mark.django_db


def test_purge_drops_expired_sessions_and_spent_codes():
    kept, gone = Client(), Client()
    for client, handle in ((kept, "aoi"), (gone, "ren")):
        client.post("/account/signup/password/", {"handle": handle, "password": "plum-417-x"})
    Session.objects.filter(session_key=gone.cookies["sessionid"].value).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    aoi, ren = accounts.user_for_handle("aoi"), accounts.user_for_handle("ren")
    accounts.new_signin_code(aoi)
    code, _token, _row = accounts.new_signin_code(ren)
    assert accounts.redeem_signin_code(code=code) == ren
    assert tasks.purge_expired() == {"sessions": 1, "device_sessions": 1, "signin_codes": 1}
    assert list(DeviceSession.objects.values_list("user__username", flat=True)) == ["aoi"]
    assert list(SignInCode.objects.values_list("user__username", flat=True)) == ["aoi"]
    assert kept.get("/account/").status_code == 200 and gone.get("/account/").status_code == 302
