from config.settings_test import *  # noqa: F403

ROOT_URLCONF = "tests.browser.telemetry_site"
