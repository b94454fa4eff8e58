from django.urls import path

from players import views

app_name = "players"
urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.signup, name="signup"),
    path("signup/password/", views.signup_password, name="signup_password"),
    path("signup/passkey/options/", views.signup_passkey_options, name="signup_passkey_options"),
    path("signup/passkey/verify/", views.signup_passkey_verify, name="signup_passkey_verify"),
    path("welcome/", views.welcome, name="welcome"),
    path("signin/", views.signin, name="signin"),
    path("signin/passkey/options/", views.signin_passkey_options, name="signin_passkey_options"),
    path("signin/passkey/verify/", views.signin_passkey_verify, name="signin_passkey_verify"),
    path("signin/password/", views.signin_password, name="signin_password"),
    path("signin/recovery/", views.signin_recovery, name="signin_recovery"),
    path("signin/code/", views.signin_code, name="signin_code"),
    path("signin/link/<str:token>/", views.signin_link, name="signin_link"),
    path("signout/", views.signout, name="signout"),
    path("signout/everywhere/", views.signout_everywhere, name="signout_everywhere"),
    path("passkeys/options/", views.passkey_add_options, name="passkey_add_options"),
    path("passkeys/verify/", views.passkey_add_verify, name="passkey_add_verify"),
    path("passkeys/<int:passkey_id>/remove/", views.passkey_remove, name="passkey_remove"),
    path("code/", views.new_code, name="new_code"),
    path("recovery-codes/", views.new_recovery_codes, name="new_recovery_codes"),
    path("trainer/", views.trainer_import, name="trainer_import"),
    path("trainer/forget/", views.trainer_forget, name="trainer_forget"),
    path("export/", views.export_data, name="export"),
    path("delete/", views.delete_account, name="delete"),
]
