"""Your data: the export holds everything kept about the player; deletion removes every row
that names them (counted table by table) and nobody else's; trainer progress merged by review
id, idempotently."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import models
from django.test import Client

from players import accounts, trainer
from players.models import TrainerPoem, TrainerReview

pytestmark = pytest.mark.django_db
PASSWORD = "plum-blossom-417"


def trainer_file(log, poems=None) -> bytes:
    poems = poems or [{"n": 7, "seen": len(log), "misses": 0, "ms": 900, "first": 1.0,
                       "asked": 2.0, "confused": {"8": 1}, "card": None}]  # fmt: skip
    return json.dumps({"format": "hyakunin-trainer", "version": 1, "exported": "x",
                       "poems": poems, "log": log}).encode()  # fmt: skip


LOG = [[1_700_000_000_000 + i * 1000, 1 + i % 100, 1 + i % 4, 800 + i, i % 3] for i in range(30)]


def player(handle) -> Client:
    client = Client(HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0")
    client.post("/account/signup/password/", {"handle": handle, "password": PASSWORD})
    client.get("/account/welcome/")
    return client


def upload(client, content: bytes, name="trainer.json"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post("/account/trainer/", {"file": SimpleUploadedFile(name, content)})


def test_trainer_import_is_idempotent_and_merges_by_review_id():
    client = player("hanako")
    user = accounts.user_for_handle("hanako")
    assert upload(client, trainer_file(LOG[:20])).status_code == 302
    assert TrainerReview.objects.filter(user=user).count() == 20
    upload(client, trainer_file(LOG[:20]))  # the same file again: nothing doubled
    assert TrainerReview.objects.filter(user=user).count() == 20
    upload(client, trainer_file(LOG[10:]))  # an overlapping newer one: nothing lost
    assert TrainerReview.objects.filter(user=user).count() == 30
    kept = trainer.export(user)
    assert kept["log"] == sorted(LOG) and kept["poems"][0]["seen"] == 20
    # A damaged file changes nothing, and the kept copy is a file the trainer can import.
    upload(client, trainer_file([[1, 2, 9, 3, 0]]))
    upload(client, b"{not json")
    assert TrainerReview.objects.filter(user=user).count() == 30
    assert trainer.parse(json.dumps(kept)) == (kept["poems"], kept["log"])
    assert user.player.__class__.objects.get(user=user).keep_trainer
    page = Client().get("/en/@/hanako/").content.decode()
    assert "30 reviews; 1 of the hundred poems practised" in page


def test_the_export_holds_everything_kept():
    client = player("hanako")
    upload(client, trainer_file(LOG))
    client.post("/account/code/")
    second = Client(HTTP_USER_AGENT="Mozilla/5.0 (Macintosh; Mac OS X 14) Safari/605.1")
    second.post("/account/signin/password/", {"username": "hanako", "password": PASSWORD})
    response = client.post("/account/export/")
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["handle"] == "hanako" and data["password"] is True
    assert data["recovery_codes"]["unused"] == 10
    assert sorted(s["device"] for s in data["sessions"]) == ["Chrome · Linux", "Safari · macOS"]
    assert data["trainer"]["log"] == LOG and len(data["trainer"]["poems"]) == 1
    assert data["keep_trainer"] is True and data["passkeys"] == []
    text = response.content.decode()
    assert PASSWORD not in text and "pbkdf2" not in text.lower() and "md5$" not in text


def _rows_naming(user_id: int) -> dict[str, int]:
    """Per table: rows whose foreign key names the user, and the user's own sessions."""
    User = get_user_model()
    counts = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.ForeignKey | models.OneToOneField) and (
                field.related_model is User
            ):
                n = model.objects.filter(**{field.name: user_id}).count()
                counts[f"{model._meta.db_table}.{field.name}"] = n
    counts["auth_user"] = User.objects.filter(pk=user_id).count()
    counts["django_session"] = sum(
        1 for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user_id)
    )
    return counts


def test_deletion_removes_every_row_naming_the_player_and_no_other():
    client, other = player("hanako"), player("taro")
    upload(client, trainer_file(LOG))
    upload(other, trainer_file(LOG[:5]))
    client.post("/account/code/")
    Client().post("/account/signin/password/", {"username": "hanako", "password": PASSWORD})
    user, bystander = accounts.user_for_handle("hanako"), accounts.user_for_handle("taro")
    before = _rows_naming(user.pk)
    others_before = _rows_naming(bystander.pk)
    for table in ("players_profile.user", "players_recoverycode.user",
                  "players_devicesession.user", "players_signincode.user",
                  "players_trainerreview.user", "players_trainerpoem.user"):  # fmt: skip
        assert before[table] > 0, table
    assert before["django_session"] == 2

    refused = client.post("/account/delete/", {"confirm": "taro"})
    assert refused.status_code == 302 and _rows_naming(user.pk) == before
    done = client.post("/account/delete/", {"confirm": "ＨＡＮＡＫＯ"})
    assert done.status_code == 302
    after = _rows_naming(user.pk)
    assert set(after.values()) == {0}, {k: v for k, v in after.items() if v}
    assert _rows_naming(bystander.pk) == others_before
    assert TrainerReview.objects.count() == 5 and TrainerPoem.objects.count() == 1
    # The handle is free again; the profile page is gone.
    assert Client().get("/@/hanako/").status_code == 404
    assert player("hanako").get("/account/").status_code == 200
