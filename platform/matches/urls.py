from django.urls import path

from matches import views

app_name = "matches"
urlpatterns = [
    path("new/<slug:slug>/", views.create, name="create"),
    path("invite/<str:code>/", views.invite, name="invite"),
    path("<uuid:match_id>/", views.play, name="play"),
    path("<uuid:match_id>/again/", views.rematch, name="rematch"),
]
