"""The admin list (read-only) and the staff dashboard with its charts and numbers."""

from datetime import timedelta

import pytest
from django.utils import timezone

from telemetry import dashboard
from telemetry.charts import column_chart, hbar_chart
from telemetry.models import TelemetryEvent
from tests.telemetry.factories import make_events

DASHBOARD = "/staff/telemetry/"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", password="pw", is_staff=True,
                                                  is_superuser=True)  # fmt: skip


@pytest.fixture
def figures():
    now = timezone.now()
    make_events(now, count=4, kind="game_start", game="bozu", mode="cpu")
    make_events(now, count=3, kind="game_end", game="bozu", mode="cpu", result="win")
    make_events(now, count=1, kind="game_end", game="bozu", mode="cpu", result="abandon")
    make_events(now, count=2, kind="game_start", game="karuta", mode="solo")
    make_events(now, count=3, kind="room_connect", outcome="success", browser="safari", os="ios")
    make_events(now, count=1, kind="room_seat", outcome="failure", browser="safari", os="ios")
    make_events(now, count=2, kind="room_connect", outcome="failure", browser="chrome",
                os="android")  # fmt: skip
    make_events(now, count=3, kind="view3d_start", time_to_3d="1-3s", device="phone",
                render_speed="15-29fps")  # fmt: skip
    make_events(now, count=1, kind="view3d_failure", device="phone")
    make_events(now, count=2, kind="render_speed", render_speed="50fps+", device="other")
    make_events(now - timedelta(days=3), count=5, kind="page_load", connection="4g", cache="all")
    make_events(now - timedelta(days=31), count=9, kind="game_start")  # outside the 30 days
    return now


@pytest.mark.django_db
def test_completion_rates_per_game_and_mode(figures):
    rows = {(r.game, r.mode): r for r in dashboard.completion_by_game_mode(dashboard.recent())}
    bozu = rows[("bozu", "cpu")]
    assert (bozu.started, bozu.ended, bozu.completed) == (4, 4, 3)
    assert bozu.rate == pytest.approx(0.75)
    assert rows[("karuta", "solo")].rate == 0.0


@pytest.mark.django_db
def test_room_and_3d_failure_rates(figures):
    rooms = {r.label: r for r in dashboard.room_failures_by_browser_os(dashboard.recent())}
    assert (rooms["safari / ios"].attempts, rooms["safari / ios"].failures) == (4, 1)
    assert rooms["chrome / android"].rate == 1.0
    view3d = {r.label: r for r in dashboard.view3d_failures_by_device(dashboard.recent())}
    assert view3d["phone"].rate == pytest.approx(0.25)
    speeds = dashboard.render_speed_by_device(dashboard.recent())
    assert speeds["phone"]["15-29fps"] == 3 and speeds["other"]["50fps+"] == 2
    assert speeds["phone"]["50fps+"] == 0


@pytest.mark.django_db
def test_daily_counts_cover_thirty_days(figures):
    daily = dashboard.daily_counts(dashboard.recent(figures), timezone.localdate(figures))
    assert len(daily) == 30
    assert daily[-1] == (timezone.localdate(figures), 22)
    assert daily[-4][1] == 5
    assert sum(n for _day, n in daily) == 27


def test_charts_scale_bars_and_keep_the_numbers():
    chart = hbar_chart([("a", 0.5, "50%"), ("b", 1.0, "100%")], maximum=1.0)
    assert [bar.width for bar in chart.bars] == [160.0, 320.0]
    assert [bar.y for bar in chart.bars] == [0, 22]
    columns = column_chart([("d1", 2), ("d2", 8), ("d3", 0)], plot_height=100)
    assert [c.height for c in columns.columns] == [25.0, 100.0, 0.0]
    assert columns.maximum == 8


@pytest.mark.django_db
def test_non_staff_are_sent_to_the_admin_login(client, django_user_model):
    response = client.get(DASHBOARD)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/?next=/staff/telemetry/")
    django_user_model.objects.create_user("player", password="pw")
    client.login(username="player", password="pw")
    assert client.get(DASHBOARD).status_code == 302


@pytest.mark.django_db
def test_the_dashboard_draws_svg_charts_with_the_numbers(client, staff, figures):
    client.force_login(staff)
    response = client.get(DASHBOARD, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<svg") >= 5  # completion, rooms, 3D, 2 speed distributions, daily
    assert "75.0% (3/4)" in html  # bozu vs CPU
    assert "25.0% (1/4)" in html  # Safari on iOS rooms
    assert "100.0% (2/2)" in html  # Chrome on Android rooms
    assert "25.0% (1/4)" in html  # 3D on phones
    assert '<td class="num">22</td>' in html  # today's events, in the table
    assert 'font-size="9">22</text>' in html  # and above today's column


@pytest.mark.django_db
def test_admin_lists_events_read_only_with_filters_and_search(client, staff, figures):
    client.force_login(staff)
    url = "/admin/telemetry/telemetryevent/"
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("game", "mode", "result", "device", "browser", "received_at"):
        assert f"{name}__" in html or f"{name}=" in html, name
    filtered = client.get(url, {"browser__exact": "safari"})
    assert filtered.context["cl"].result_count == 4
    searched = client.get(url, {"q": "view3d_failure"})
    assert searched.context["cl"].result_count == 1
    event = TelemetryEvent.objects.first()
    assert client.get(f"{url}add/").status_code == 403
    detail = client.get(f"{url}{event.pk}/change/")
    assert detail.status_code == 200 and 'name="_save"' not in detail.content.decode()
    assert client.post(f"{url}{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert TelemetryEvent.objects.filter(pk=event.pk).exists()
