"""One settings module for every environment.

Embedded defaults (nothing to install or start): SQLite, the in-memory channel
layer, and a filesystem Celery broker, all under var/. Production is chosen by
environment variables: DATABASE_URL (PostgreSQL), REDIS_URL (channel layer and
Celery broker), SECRET_KEY, ALLOWED_HOSTS, DEBUG. See README.md.
"""

import contextlib
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent  # the repository root
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _make_var_dir() -> None:
    """var/ holds the embedded database, broker, and beat's schedule file. Celery beat
    cannot create it (it only opens files), so make it here for every entry point."""
    # A read-only checkout: VAR_DIR must then point somewhere writable (deploy/).
    with contextlib.suppress(OSError):
        VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    """SECRET_KEY, or the file named by SECRET_KEY_FILE (systemd credentials, ./dev.py).

    Outside DEBUG there is no fallback: a key made up on each host would sign sessions
    and CSRF tokens that the other hosts reject, and change on every fresh checkout. An
    empty key lets tools that sign nothing run (compilemessages); the servers, Celery and
    `manage.py check` refuse it (config.startup).
    """
    if key := os.environ.get("SECRET_KEY", "").strip():
        return key
    if path := os.environ.get("SECRET_KEY_FILE", "").strip():
        return Path(path).read_text().strip()  # never made here: a missing file is an error
    return "insecure-debug-only-" + "k" * 40 if DEBUG else ""


_make_var_dir()
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# --- HTTPS: on by default outside DEBUG; HTTPS=0 turns it off for a plain-HTTP run.
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # probes on the host speak plain HTTP to daphne
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"  # Django's default, said aloud: accounts rely on it
CSRF_COOKIE_HTTPONLY = False  # the play pages' fetch() reads it
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "daphne",  # before staticfiles: its runserver serves ASGI
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "csp",  # Content-Security-Policy header (and nonces for the one inline <style>)
    "axes",  # admin login lockout, per username, no address kept (config/security.py)
    # the platform (platform/ is on sys.path)
    "gamekit",
    "poems",
    "pages",
    "telemetry",
    "matches",
    "records",  # a finished match's record: replay, share, export, retention
    "ratings",  # ratings per game and mode, leaderboards (docs/ratings.md)
    "players",  # accounts: handles, passkeys, sessions, profiles, your data (docs/players.md)
    "lobby",  # seeks, quick-pairing pools, fair play (docs/lobby.md)
    "events",  # club tournaments and arenas (docs/events.md)
    # the games: adding a game is adding its app here
    "games.bozu",
    "games.karuta",
    "games.bakudan",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.SiteLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pages.context_processors.site",
            ],
        },
    },
]

# --- Database: SQLite file by default, DATABASE_URL for PostgreSQL.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        # 0: persistent connections leak under ASGI (each request may run in a new thread).
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", 0)),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # A connection pool per process (psycopg_pool): under ASGI each database call may run
    # on another thread, so persistent connections pile up and unpooled ones are slow.
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": int(os.environ.get("DB_POOL_SIZE", 8)), "timeout": 10}
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django requires 0 with a pool
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent readers and one writer without "database is locked" errors.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels and Celery: in-process / filesystem by default, Redis with REDIS_URL.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.notice_layer.RedisNoticeLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                "capacity": 1000,
                "group_expiry": 3600,
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.embedded_layer.EmbeddedChannelLayer"}}
    _broker_dir = VAR_DIR / "celery-broker"
    (_broker_dir / "processed").mkdir(parents=True, exist_ok=True)  # kombu expects it
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(_broker_dir / "processed"),
        # kombu's default is ./control, beside the code, wherever the worker was started.
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
# The lobby's seat hand-off (lobby/handoff.py): a seat token waits there under a one-time
# ticket for two minutes, shared by every process with REDIS_URL. Never the database.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "lobby": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that stops answering pauses pairing within a second (lobby/ticker.py)
            # instead of holding the database thread that asks it.
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "lobby"}
    ),
    # Event boards' seat tokens wait here for their person (never in the database).
    "events": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "events"}
    ),
}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict = {
    # docs/requirements.md §6: telemetry records live 30 days.
    "telemetry-purge-expired": {
        "task": "telemetry.purge_expired",
        "schedule": crontab(hour=3, minute=17),
    },
    # Finished matches and their records live RECORDS_RETENTION_DAYS (records.retention).
    "records-purge-expired": {
        "task": "records.purge_expired",
        "schedule": crontab(hour=3, minute=41),
    },
    # Expired sessions, their rows in players.DeviceSession, spent one-time codes.
    "players-purge-expired": {
        "task": "players.purge_expired",
        "schedule": crontab(hour=3, minute=53),
    },
    # Moves matches whose CPU / disconnect timer was lost (a restart, a dropped task).
    "matches-sweep-stalled": {"task": "matches.tasks.sweep_stalled_matches", "schedule": 15.0},
    # Rated matches whose update no receiver applied (a process killed after the finish).
    "ratings-catch-up": {"task": "ratings.catch_up", "schedule": 60.0},
    # The once-only markers of matches older than the catch-up window (and a day).
    "ratings-purge-markers": {
        "task": "ratings.purge_markers",
        "schedule": crontab(hour=4, minute=11),
    },
    # Abandoned rated games whose match_finished no lobby receiver saw (lobby/tasks.py).
    "lobby-catch-up": {"task": "lobby.catch_up", "schedule": 300.0},
    # Event rounds start on time, lost results are caught up, arenas pair their waves.
    "events-tick": {"task": "events.tick", "schedule": 1.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")  # VAR_DIR made above
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# --- Internationalisation: Japanese first.
LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", "日本語"), ("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]  # first: overrides app catalogues (see its "History")
# The switcher's cookie: only over HTTPS in production, never sent cross-site, not for JS.
LANGUAGE_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Web hardening (issue 15). The pages carry no inline script or style attribute:
# scripts, styles, images and connections (fetch, WebSocket) come from this site only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, NONCE],  # NONCE: the staff dashboard's <style> block
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],  # 'self' covers ws:/wss: to this host (CSP level 3)
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Browser features no game uses are switched off for the site and anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in ("accelerometer", "camera", "geolocation", "gyroscope", "magnetometer",
                    "microphone", "payment", "usb")
}  # fmt: skip

# Admin logins: django-axes locks a username out after AXES_FAILURE_LIMIT wrong passwords
# for AXES_COOLOFF_TIME, whoever tries. It keys and stores by username only: the client
# address is never looked at (docs/requirements.md §6: addresses stay out of the database and logs).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", 15)))
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.security.no_client_address"
AXES_DISABLE_ACCESS_LOG = True  # no row per successful login
AXES_VERBOSE = False
AXES_HTTP_RESPONSE_CODE = 429
# axes.W006 warns that username-only lockouts can be dodged by rotating user agents or
# cookies: not so here (they play no part in the key), and adding the address is what
# docs/requirements.md §6 forbids.
SILENCED_SYSTEM_CHECKS = ["axes.W006"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Hyakunin Isshu card games API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}
# Telemetry intake: requests per window per client address, counted in process memory only.
TELEMETRY_RATE_LIMIT = (30, 60)
# How many proxies of ours stand before the servers (deploy/: nginx, so 1). Each adds the
# address it saw to X-Forwarded-For; the entry left of them is the client. 0: ignore it.
# Do not start daphne with --proxy-headers: it would trust the left-most, forgeable entry.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", 0))

# --- Logging: no client addresses anywhere (docs/requirements.md §6). Django's request logger
# records the request (and so REMOTE_ADDR) on errors: keep it to the message. Both
# formatters redact anything shaped like an address, tracebacks included. Production
# (DEBUG off) writes JSON lines; LOG_FORMAT=plain for text (./dev.py run sets it).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "no_request": {"()": "config.logging.DropRequestFilter"},
        "no_addresses": {"()": "config.logging.RedactAddressFilter"},
    },
    "formatters": {
        "plain": {
            "()": "config.logging.PlainFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        },
        "json": {"()": "config.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
            "filters": ["no_request", "no_addresses"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "django.server": {"handlers": [], "propagate": False},
        # daphne's DEBUG lines name the client address: never below INFO.
        "daphne": {"level": "INFO"},
    },
}
ADMINS: list = []  # no error mails: they would carry REMOTE_ADDR

# --- Matches (platform/matches). CPU moves are queued on Celery when there is a shared
# broker and channel layer (REDIS_URL); every ASGI process also drives the matches it
# serves, so the embedded defaults need no worker for a game to run.
MATCHES_CELERY = env_bool("MATCHES_CELERY", bool(REDIS_URL))
# Without Celery (and its beat), each process ticks the events itself (events/ticker.py).
EVENTS_TICKER = env_bool("EVENTS_TICKER", not MATCHES_CELERY)
MATCHES_DISCONNECT_GRACE_S = int(os.environ.get("MATCHES_DISCONNECT_GRACE_S", 45))
if os.environ.get("MATCHES_CPU_DELAY_MS"):  # else each game's own pace (Game.cpu_delay_ms)
    MATCHES_CPU_DELAY_MS = int(os.environ["MATCHES_CPU_DELAY_MS"])
# Timed games (karuta): how long before its time a kana, or the poem once decided, is sent
# (docs/karuta-online.md): enough to cross a slow link and be drawn on time, below what a
# person could use.
MATCHES_RELEASE_LEAD_MS = int(os.environ.get("MATCHES_RELEASE_LEAD_MS", 150))
# How contested karuta touches are judged: "corrected" (the claimed time on the corrected
# clock, checked against the arrival) or "arrival" (arrival order at the server). "arrival"
# exists only for the fairness bench, to show the bias the correction removes.
KARUTA_JUDGE = os.environ.get("KARUTA_JUDGE", "corrected")

# Match records (platform/records, docs/records.md): a finished match and its record are
# deleted this many days after the match's last log line; a seated player may keep the record
# up to RECORDS_KEEP_MAX_DAYS after it; rooms that never started go after
# RECORDS_ABANDONED_HOURS.
RECORDS_RETENTION_DAYS = int(os.environ.get("RECORDS_RETENTION_DAYS", 30))
RECORDS_KEEP_MAX_DAYS = int(os.environ.get("RECORDS_KEEP_MAX_DAYS", 365))
RECORDS_ABANDONED_HOURS = int(os.environ.get("RECORDS_ABANDONED_HOURS", 24))

SITE_NAME = _("Hyakunin Isshu card games")

# Ratings (platform/ratings, docs/ratings.md): the catch-up sweep looks this far back.
RATINGS_CATCH_UP_DAYS = int(os.environ.get("RATINGS_CATCH_UP_DAYS", 7))
# A finished rated match's update runs as a Celery task (ratings.apply_match) when a worker
# shares the broker (as MATCHES_CELERY says), else in the process that finished the match.
RATINGS_CELERY = env_bool("RATINGS_CELERY", MATCHES_CELERY)

# Players (platform/players, docs/players.md). The WebAuthn relying-party id is the request's
# host name unless set here (a domain, never an IP address: browsers refuse those).
PLAYERS_WEBAUTHN_RP_ID = os.environ.get("PLAYERS_WEBAUTHN_RP_ID", "")
# A one-time sign-in code (and its link) made on a signed-in device lives this long.
PLAYERS_SIGNIN_CODE_MINUTES = int(os.environ.get("PLAYERS_SIGNIN_CODE_MINUTES", 5))
LOGIN_URL = "players:signin"
