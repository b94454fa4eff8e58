from django.urls import path

from games.karuta import trainer_views, views

urlpatterns = [
    path("", views.index, name="index"),
    path("trainer/", trainer_views.trainer, name="trainer"),
    path("trainer/manifest.webmanifest", trainer_views.manifest, name="trainer_manifest"),
]
