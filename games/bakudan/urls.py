from django.urls import path

from games.bakudan import views

urlpatterns = [path("", views.index, name="index")]
