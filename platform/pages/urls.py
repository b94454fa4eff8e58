from django.urls import path

from pages import views

app_name = "pages"
urlpatterns = [
    path("", views.home, name="home"),
    path("credits/", views.credits, name="credits"),
    path("kimariji/", views.kimariji, name="kimariji"),
]
