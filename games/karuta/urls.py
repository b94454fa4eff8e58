from django.urls import path

from games.karuta import views

urlpatterns = [
    path("", views.index, name="index"),
]
