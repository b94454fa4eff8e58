"""The browser test's server: the test settings with django-axes' lockout switched on (off
in config.settings_test, because the test client's login() passes no request)."""

from config.settings_test import *  # noqa: F403

AXES_ENABLED = True
