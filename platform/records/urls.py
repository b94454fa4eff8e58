from django.urls import path

from records import views

app_name = "records"
urlpatterns = [
    path("<str:record_id>/", views.page, name="page"),
    path("<str:record_id>/record.json", views.export, name="json"),
    path("<str:record_id>/preview.png", views.preview_image, name="preview"),
    path("<str:record_id>/delete/", views.delete, name="delete"),
    path("<str:record_id>/keep/", views.keep, name="keep"),
]
