"""Pegboard settings: one module, driven by environment variables.

With nothing set (the embedded default) Pegboard runs on a SQLite file under ``var/`` and runs
Celery tasks eagerly in-process, so ``make run`` needs no services. The real deployment sets
``DATABASE_URL`` (PostgreSQL), ``CELERY_BROKER_URL`` (Redis) and ``REDIS_URL`` (cache).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable (1/true/yes/on)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Anything of a deployment set in the environment: then Pegboard is not the embedded demo.
PRODUCTION_SIGNS = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "ALLOWED_HOSTS")
DEPLOYED = [
    name
    for name in PRODUCTION_SIGNS
    if os.environ.get(name) and not os.environ[name].startswith("sqlite")  # a SQLite file: a demo
]
# Fail closed: debug pages only where they are asked for (DEBUG=1) or where nothing of a
# deployment is configured (the embedded default, `make run`).
DEBUG = env_bool("DEBUG", not DEPLOYED)
# The default key is for the embedded demo only: with DEBUG off a missing key is an error,
# never the demo key.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set SECRET_KEY: Pegboard never runs on the demo key outside the embedded default"
            + (f" ({', '.join(DEPLOYED)} set)" if DEPLOYED else "")
            + ". DEBUG=1 asks for a development run on it."
        )
    SECRET_KEY = "pegboard-insecure-development-key-change-me"
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if h.strip()
]
if os.environ.get("CSRF_TRUSTED_ORIGINS"):
    CSRF_TRUSTED_ORIGINS = os.environ["CSRF_TRUSTED_ORIGINS"].split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # |intcomma: 1,234 / 1.234 by the page's language
    "rest_framework",
    "rest_framework.authtoken",  # TDs' tokens for rulings from scripts and devices
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "drf_standardized_errors",
    "django_filters",
    "django_celery_results",
    "django_htmx",
    "template_partials",
    "axes",
    "core",
    "tournaments",
    "scoring",
    "games_web",
    "results",
    "treasury",
]

MIDDLEWARE = [
    # First: /healthz and /readyz answer a load balancer's probe by any host name, over plain
    # HTTP, with no session or throttle (config/health.py).
    "config.health.HealthCheckMiddleware",
    # Compresses what every other middleware returns: a 100-row standings table goes to a
    # phone on the hall's wifi as 6 KB instead of 60 (with Django's BREACH mitigation).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside everything that reads the database (sessions, users, views): a request whose
    # connection died is run once more when safe, else a 503 with Retry-After, never a 500.
    "core.middleware.LostConnectionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # ?lang=it, a player's link and an event's own language (tournaments/middleware.py).
    "tournaments.middleware.LanguageChoiceMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "core.middleware.BadInputMiddleware",
    # Last: locks an account out after repeated failed logins (pages and API authentication).
    "axes.middleware.AxesMiddleware",
]
if env_bool("CSP", False):
    MIDDLEWARE.insert(2, "csp.middleware.CSPMiddleware")

# A paper-card file of 50,000 lines fits; anything larger is a 413 before it is read.
DATA_UPLOAD_MAX_MEMORY_SIZE = FILE_UPLOAD_MAX_MEMORY_SIZE = 5_000_000
# An event archive may be larger (a 1,000-player event is under 2 MB); this one limit is read by
# the import form, the import command and BadInputMiddleware for the import page's requests.
ARCHIVE_MAX_BYTES = 50 * 1024 * 1024
LARGE_UPLOAD_PAGES = frozenset({"td-club-import"})

# --- Security: every switch can be turned on from the environment (README, production shape) --
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# django-csp 4: scripts only from this site (and a page's nonce); styles inline too (Bootstrap
# utilities and htmx's indicator style); no plugins, no framing, forms post here only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
}

# Login lockout (django-axes): 10 wrong passwords for one username from one address lock it
# for 15 minutes, on the login page and on API Basic authentication alike.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Behind a proxy, the client address is the one it reports (NUM_PROXIES hops), never an
# X-Forwarded-For header a client sends on its own.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
AXES_IPWARE_PROXY_COUNT = NUM_PROXIES or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if NUM_PROXIES else ["REMOTE_ADDR"]
)

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "config.context_processors.states",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------
DEFAULT_SQLITE_URL = f"sqlite:///{VAR_DIR / 'pegboard.sqlite3'}"
DATABASE_URL = os.environ.get("DATABASE_URL") or DEFAULT_SQLITE_URL
if DATABASE_URL == DEFAULT_SQLITE_URL:
    VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
# PGBOUNCER=1: DATABASE_URL points at PgBouncer in transaction mode. A transaction may then run
# on any server connection, so a server-side cursor (QuerySet.iterator()) could vanish between
# two fetches: Django must not use them. PgBouncer does the pooling, so Django's own pool is
# off unless DB_POOL=1 asks for both. (Django never prepares statements on psycopg 3 unless
# asked, so PgBouncer's transaction mode needs nothing else.)
PGBOUNCER = env_bool("PGBOUNCER", False)
if PGBOUNCER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_POOL", not PGBOUNCER
):
    # Django's own psycopg 3 pool; it requires CONN_MAX_AGE=0 (docs/stack.md).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "1")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
        "timeout": 10,
    }
    # A connection the server dropped while it sat in the pool (pg_terminate_backend, a
    # restart) is found on checkout and replaced there: with health checks on, Django gives
    # the pool its check_connection (one empty round trip).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves a club night of phones at once: readers never wait for the
    # writer (WAL), writers queue for up to 20 s instead of answering "database is locked", and
    # a write transaction takes its lock up front (IMMEDIATE) so it cannot deadlock midway.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache --------------------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that hangs fails a cache call in seconds (throttles then fail open and
            # /readyz says "cache"), instead of holding the request until the client gives up.
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    # The embedded default only: one process, nothing to share. A deployment with several
    # processes sets REDIS_URL, or throttles and the standings' queued markers are per process.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery -------------------------------------------------------------------------------------
BROKER_FROM_ENV = os.environ.get("CELERY_BROKER_URL", "")
# No broker = the embedded default: tasks run in-process, right after the transaction commits
# (the in-memory transport is named only so nothing tries to reach amqp://localhost).
CELERY_BROKER_URL = BROKER_FROM_ENV or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = not BROKER_FROM_ENV
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_STORE_EAGER_RESULT = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "django-db")
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TRACK_STARTED = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that loses Redis keeps reconnecting instead of exiting.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# ... and tries again every 2 s at most (kombu's own back-off grows to 30 s), in the worker
# and in beat (config.celery).
CELERY_WORKER_CONSUMER = "config.celery:Consumer"
CELERY_BEAT_SCHEDULER = "config.celery:Scheduler"
# A task taken by a worker that died is given to another after this long (acks_late).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("BROKER_VISIBILITY", "120"))
}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Named queues, so a deployment can give each kind of work its own workers (README, deploying
# and scaling): `celery worker -Q standings` on one host, `-Q printables,imports` on another.
# A worker started without -Q consumes every queue listed here (make worker, CI's smoke step,
# the tests' workers): a task routed to a queue missing from this list would never run there.
# Each queue has its own routing key: left out, every queue would be bound to the exchange
# with the same key ("celery"), and a message published by key would reach all of them.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [
    Queue(name, routing_key=name)
    for name in ("celery", "standings", "printables", "seasons", "imports")
]
CELERY_TASK_ROUTES = {
    "pegboard.ping": {"queue": "standings"},  # the smoke test proves the standings path
    "scoring.recompute_standings": {"queue": "standings"},
    "scoring.sweep_standings": {"queue": "standings"},
    "scoring.recompute_season": {"queue": "seasons"},
    "scoring.recompute_seasons": {"queue": "seasons"},
    "scoring.update_ratings": {"queue": "seasons"},  # club-wide, like the season ledgers
    "scoring.recompute_ratings": {"queue": "seasons"},
    "results.build_printables": {"queue": "printables"},
    "scoring.crosstable_pdf": {"queue": "printables"},
    "results.run_import": {"queue": "imports"},
}
# Standings converge without a new result: the sweep re-queues every event whose snapshots
# are behind its results (after a lost task, a broker or database outage).
STANDINGS_SWEEP_SECONDS = float(os.environ.get("STANDINGS_SWEEP_SECONDS", "5"))
# A recompute starts this long after the result that asked for it; the results that arrive
# meanwhile ride on the same run (coalescing in time as well as in the queue).
STANDINGS_GATHER_SECONDS = float(os.environ.get("STANDINGS_GATHER_SECONDS", "0.3"))
# The ratings job of a club gathers the results of a longer window: nobody watches a rating
# move live, and one run per window costs the worker a fraction of the standings' time.
RATINGS_GATHER_SECONDS = float(os.environ.get("RATINGS_GATHER_SECONDS", "2"))
CELERY_TIMEZONE = os.environ.get("TIME_ZONE", "UTC")
# `make beat`: the season tables are rebuilt every night (and on demand from the season page).
CELERY_BEAT_SCHEDULE = {
    "standings-sweep": {"task": "scoring.sweep_standings", "schedule": STANDINGS_SWEEP_SECONDS},
    "nightly-season-ledgers": {
        "task": "scoring.recompute_seasons",
        "schedule": crontab(hour=4, minute=15),
    },
}

# --- Auth, i18n, static -------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Mail (a new treasurer's set-password link): printed on the console unless a deployment
# names its backend (EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT...; Django's own settings).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "pegboard@localhost")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("it", _("Italian")), ("de", _("German")), ("ro", _("Romanian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our date formats where Django's capitalise the month mid-sentence (Italian, Romanian).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- API ----------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_standardized_errors.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.drf.exception_handler",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "core.drf.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_PARSER_CLASSES": ["core.drf.BoundedJSONParser"],
    "NUM_PROXIES": NUM_PROXIES,
    # Every request counts against its client (core/throttles.py): a signed-in user (a TD's
    # token) by user, a player's private key by key, anyone else by address, so that the
    # phones behind a hall's one NAT address do not share one allowance. The checkers have
    # their own per-address scope; reports are also limited per key in the services.
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.ClientRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "user": os.environ.get("API_USER_RATE", "1200/minute"),
        "key": os.environ.get("API_KEY_RATE", "120/minute"),
        "anon": os.environ.get("API_ANON_RATE", "1200/minute"),
        "checker": os.environ.get("CHECKER_RATE", "120/minute"),
    },
}
# A refused service call becomes its HTTP answer in one place (see pegboard/drf_handler.py).
DRF_STANDARDIZED_ERRORS = {"EXCEPTION_HANDLER_CLASS": "core.drf_handler.ServiceErrorHandler"}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pegboard API",
    "DESCRIPTION": "Events, standings and results for card-game clubs.\n\n"
    "Allowances: each call counts against its client: a signed-in user (token or session) by "
    "user, a player's private key (`key` in the body of the results calls) by the key "
    "whatever the address, any other anonymous call by address; the checkers have their own "
    "per-address rate. Over it: 429, error code `throttled`, with `Retry-After` (seconds). "
    "The rates are the deployment's (API_USER_RATE, API_KEY_RATE, API_ANON_RATE, "
    "CHECKER_RATE).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    # Without deep links: with them Swagger UI puts each operation's path, a link, inside its
    # summary button (axe-core: nested-interactive, a link a keyboard cannot reach).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "EventKindEnum": "tournaments.models.Event.Kind",
        "ResultKindEnum": "tournaments.models.GameResult.Kind",
        "BracketSourceEnum": "tournaments.models.Bracket.Source",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "PlayerStatusEnum": "tournaments.models.Player.Status",
        "GameStatusEnum": "tournaments.models.Round.Status",
        "PaymentStatusEnum": "treasury.models.Payment.Status",
        "LegKindEnum": "tournaments.leagues.models.LegKind",
        "LegSideEnum": "tournaments.leagues.models.Side",
        # Named here since a league's leg has a "winner" too (LegSideEnum).
        "WinnerEnum": [("me", "me"), ("opponent", "opponent")],
        "ValidationErrorEnum": "drf_standardized_errors.openapi_serializers.ValidationErrorEnum.choices",
        "ClientErrorEnum": "drf_standardized_errors.openapi_serializers.ClientErrorEnum.choices",
        "ServerErrorEnum": "drf_standardized_errors.openapi_serializers.ServerErrorEnum.choices",
        "ErrorCode401Enum": "drf_standardized_errors.openapi_serializers.ErrorCode401Enum.choices",
        "ErrorCode403Enum": "drf_standardized_errors.openapi_serializers.ErrorCode403Enum.choices",
        "ErrorCode404Enum": "drf_standardized_errors.openapi_serializers.ErrorCode404Enum.choices",
        "ErrorCode405Enum": "drf_standardized_errors.openapi_serializers.ErrorCode405Enum.choices",
        "ErrorCode406Enum": "drf_standardized_errors.openapi_serializers.ErrorCode406Enum.choices",
        "ErrorCode415Enum": "drf_standardized_errors.openapi_serializers.ErrorCode415Enum.choices",
        "ErrorCode429Enum": "drf_standardized_errors.openapi_serializers.ErrorCode429Enum.choices",
        "ErrorCode500Enum": "drf_standardized_errors.openapi_serializers.ErrorCode500Enum.choices",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_standardized_errors.openapi_hooks.postprocess_schema_enums",
        "config.openapi.open_error_codes",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_keys": {"()": "core.logfilters.MaskPrivateKeys"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_keys"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Every result queues a standings run: keep the success lines out of the console.
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}
