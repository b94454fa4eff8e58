"""Staff find the telemetry dashboard from the admin's index page."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_admin_index_links_to_the_telemetry_dashboard(admin_client):
    page = admin_client.get("/admin/").content.decode()
    assert 'href="/staff/telemetry/" data-telemetry-dashboard' in page
    assert admin_client.get("/staff/telemetry/").status_code == 200
