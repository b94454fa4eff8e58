from django.urls import path

from events import views

app_name = "events"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.create, name="create"),
    path("<str:code>/", views.page, name="page"),
    path("<str:code>/live/", views.live, name="live"),
    path("<str:code>/join/", views.join, name="join"),
    path("<str:code>/organise/", views.organise, name="organise"),
    path("<str:code>/results.<str:fmt>", views.export, name="export"),
    path("<str:code>/board/<int:board_id>/seat/", views.seat, name="seat"),
    path("<str:code>/board/<int:board_id>/projector/", views.projector, name="projector"),
]
