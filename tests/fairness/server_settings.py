"""Settings for the servers of the fairness test and bench: the release lead and the judge
come from the environment, so one run can compare them (MATCHES_RELEASE_LEAD_MS, ms;
KARUTA_JUDGE, "corrected" or "arrival")."""

import os

from config.settings_test import *  # noqa: F403

MATCHES_RELEASE_LEAD_MS = int(os.environ.get("MATCHES_RELEASE_LEAD_MS", "150"))
KARUTA_JUDGE = os.environ.get("KARUTA_JUDGE", "corrected")
