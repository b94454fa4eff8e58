import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k3Jv9-pQz7_Lm2xR8tYw4nB6cD1eF5gH0iK-oP3sU7vW9yZ2aC4",
    "ALLOWED_HOSTS": "karuta.example.org",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/hyakunin",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}


def _manage(*args, env_extra):
    env = {k: v for k, v in os.environ.items() if k not in ("HTTPS", "DEBUG")}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, ROOT / "manage.py", *args], env=env, capture_output=True, text=True
    )


def test_check_deploy_is_clean_under_production_variables():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env_extra=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_variables_select_postgres_and_redis():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']);"
        "print(s.CHANNEL_LAYERS['default']['BACKEND']);"
        "print(s.CELERY_BROKER_URL); print(s.DEBUG, s.SECURE_SSL_REDIRECT)"
    )
    result = _manage("shell", "--no-imports", "-c", code, env_extra=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "config.notice_layer.RedisNoticeLayer",
        "redis://127.0.0.1:6379/0",
        "False",
        "True",
    ]


def test_embedded_defaults_need_no_server(tmp_path):
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']);"
        "print(s.CHANNEL_LAYERS['default']['BACKEND']);"
        "print(s.CELERY_BROKER_URL)"
    )
    env = {"DJANGO_SETTINGS_MODULE": "config.settings", "VAR_DIR": str(tmp_path),
           "SECRET_KEY": "k" * 50}  # fmt: skip
    env_clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    result = subprocess.run(
        [sys.executable, ROOT / "manage.py", "shell", "--no-imports", "-c", code],
        env={**env_clean, **env},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "config.embedded_layer.EmbeddedChannelLayer",
        "filesystem://",
    ]
