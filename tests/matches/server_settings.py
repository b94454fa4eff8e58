"""Settings for servers started by the recovery tests: short leases and a short grace, so a
crash is recovered within seconds (the rule is the same as with the defaults, 8 s / 45 s)."""

from config.settings_test import *  # noqa: F403

MATCHES_PRESENCE_HEARTBEAT_S = 0.5
MATCHES_PRESENCE_STALE_S = 6  # longer than a restart takes: the restart alone must not end it
MATCHES_DISCONNECT_GRACE_S = 5
