from django.urls import path

from lobby import views

app_name = "lobby"
urlpatterns = [
    path("", views.lobby, name="page"),
    path("seek/", views.seek, name="seek"),
    path("cpu/", views.cpu, name="cpu"),
    path("seat/<str:ticket>/", views.seat, name="seat"),
]
