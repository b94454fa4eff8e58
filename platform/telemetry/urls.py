"""Three small URL lists, mounted by config/urls.py:

- api_patterns under /api/telemetry/ (not translated: clients post to one address),
- staff_patterns under /staff/telemetry/ (staff only, like the admin),
- page_patterns inside i18n_patterns (the privacy page in the reader's language).
"""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from telemetry import api, views

api_patterns = (
    [
        path("events/", api.EventIntake.as_view(), name="events"),
        path("schema/", SpectacularAPIView.as_view(), name="schema"),
    ],
    "telemetry_api",
)
staff_patterns = ([path("", views.staff_dashboard, name="dashboard")], "telemetry_staff")
page_patterns = ([path("privacy/", views.privacy, name="privacy")], "telemetry")
