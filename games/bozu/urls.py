from django.urls import path

from games.bozu import views

urlpatterns = [path("", views.index, name="index")]
