"""Account pages: sign up, sign in (passkey, password, recovery code, one-time code), the
account page (passkeys, sessions, codes, trainer progress, export, deletion).

Every POST is CSRF-checked (Django's middleware; the passkey calls send the token in a
header) and rate-limited per client address in memory (players.ratelimit)."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from players import accounts, names, passkeys
from players.handles import HandleRefusal
from players.models import Passkey, RecoveryCode, new_webauthn_id
from players.ratelimit import limited

BACKEND = "django.contrib.auth.backends.ModelBackend"
SHOW_CODES = "players.show_recovery_codes"


def _sign_in(request, user, method: str) -> None:
    """django.contrib.auth.login: a new session key (no fixation), then our session row."""
    request.players_method = method
    login(request, user, backend=BACKEND)


def ceremony_message(reason: str) -> str:
    if reason == "ip-host":
        return _("Passkeys need the site's name in the address bar, not a numeric address.")
    if reason == "expired":
        return _("That took too long or was already used. Please try again.")
    if reason == "unknown":
        return _("This passkey is not known here. Was its account deleted?")
    return _("The passkey could not be verified. Please try again.")


def _json_error(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _json_body(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


# --- sign up ---------------------------------------------------------------------------


class PasswordSignUpForm(forms.Form):
    handle = forms.CharField(label=gettext_lazy("Handle"), max_length=60)
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput)

    def clean_handle(self):
        return names.clean_new_handle(self.cleaned_data["handle"])

    def clean(self):
        data = super().clean()
        if "handle" in data and "password" in data:
            from django.contrib.auth.models import User

            try:
                validate_password(data["password"], User(username=data["handle"]))
            except ValidationError as error:
                self.add_error("password", error)
        return data


@require_GET
def signup(request):
    if request.user.is_authenticated:
        return redirect("players:account")
    return render(request, "players/signup.html", {"form": PasswordSignUpForm()})


@require_POST
@limited("signup")
def signup_password(request):
    form = PasswordSignUpForm(request.POST)
    if not form.is_valid():
        return render(request, "players/signup.html", {"form": form}, status=400)
    try:
        user = accounts.create_account(form.cleaned_data["handle"], form.cleaned_data["password"])
    except accounts.HandleTaken:
        form.add_error("handle", names.refusal_message(_taken(form.cleaned_data["handle"])))
        return render(request, "players/signup.html", {"form": form}, status=400)
    return _welcome(request, user, "signup")


def _taken(handle):
    return HandleRefusal("taken", handle)


@require_POST
@limited("signup")
def signup_passkey_options(request):
    handle = str(_json_body(request).get("handle", ""))
    try:
        handle = names.clean_new_handle(handle)
        options = passkeys.registration_options(request, handle, new_webauthn_id())
    except ValidationError as error:
        return _json_error(error.messages[0])
    except passkeys.CeremonyError as error:
        return _json_error(ceremony_message(error.reason))
    return HttpResponse(options, content_type="application/json")


@require_POST
@limited("signup")
def signup_passkey_verify(request):
    try:
        credential = passkeys.parse_credential(request.body)
        pending, verified = passkeys.verify_registration(request, credential)
        with transaction.atomic():  # an account with its passkey, or nothing
            user = accounts.create_account(pending["user_name"])
            profile = user.player
            profile.webauthn_id = passkeys.base64url_to_bytes(pending["webauthn_id"])
            profile.save(update_fields=["webauthn_id"])
            try:
                with transaction.atomic():
                    passkeys.save_passkey(user, verified, credential)
            except IntegrityError as error:  # a credential already registered here
                raise passkeys.CeremonyError("refused") from error
    except passkeys.CeremonyError as error:
        return _json_error(ceremony_message(error.reason))
    except accounts.HandleTaken as taken:
        return _json_error(names.refusal_message(_taken(str(taken))))
    _welcome(request, user, "signup")
    return JsonResponse({"next": reverse("players:welcome")})


def _welcome(request, user, method):
    _sign_in(request, user, method)
    request.session[SHOW_CODES] = accounts.new_recovery_codes(user)
    return redirect("players:welcome")


@login_required
@require_GET
def welcome(request):
    """The recovery codes, shown once: they leave the session as the page is made."""
    codes = request.session.pop(SHOW_CODES, None)
    if not codes:
        return redirect("players:account")
    response = render(request, "players/codes.html", {"codes": codes})
    response["Cache-Control"] = "no-store"
    return response


# --- sign in ---------------------------------------------------------------------------


@require_GET
def signin(request):
    return render(request, "players/signin.html", {"next": _next(request)})


def _next(request) -> str:
    from django.utils.http import url_has_allowed_host_and_scheme

    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, {request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("players:account")


@require_POST
@limited("signin")
def signin_passkey_options(request):
    try:
        return HttpResponse(
            passkeys.authentication_options(request), content_type="application/json"
        )
    except passkeys.CeremonyError as error:
        return _json_error(ceremony_message(error.reason))


@require_POST
@limited("signin")
def signin_passkey_verify(request):
    try:
        user = passkeys.verify_authentication(request, passkeys.parse_credential(request.body))
    except passkeys.CeremonyError as error:
        return _json_error(ceremony_message(error.reason), status=403)
    _sign_in(request, user, "passkey")
    return JsonResponse({"next": _next(request)})


def _signin_failed(request, message: str, status: int = 400):
    return render(
        request, "players/signin.html", {"next": _next(request), "error": message}, status=status
    )


@require_POST
@limited("signin")
def signin_password(request):
    typed = request.POST.get("username", "")[:60]
    user = accounts.user_for_handle(typed) if typed else None
    # django-axes counts failures per username (settings.AXES_*): the canonical one, so
    # that "Karuta" and "ｋａｒｕｔａ" are one username to it.
    authenticated = authenticate(
        request,
        username=user.get_username() if user else typed,
        password=request.POST.get("password", ""),
    )
    if getattr(request, "axes_locked_out", False):
        # Our page, translated, instead of the one AxesMiddleware puts in place of any
        # response while this flag is set (the lockout itself stands: axes keeps it).
        request.axes_locked_out = False
        message = _("Too many wrong passwords: this handle is locked for a while. A passkey "
                    "or a recovery code still works.")  # fmt: skip
        return _signin_failed(request, message, status=429)
    if authenticated is None:
        return _signin_failed(request, _("That handle and password do not match."))
    _sign_in(request, authenticated, "password")
    return redirect(_next(request))


@require_POST
@limited("code")
def signin_recovery(request):
    user = accounts.user_for_handle(request.POST.get("handle", "")[:60])
    if user is None or not accounts.use_recovery_code(user, request.POST.get("code", "")[:40]):
        return _signin_failed(request, _("That handle and recovery code do not match."))
    _sign_in(request, user, "recovery")
    left = RecoveryCode.objects.filter(user=user, used_at=None).count()
    messages.info(request, _("Recovery code used: %(n)d left. Add a passkey or make new codes "
                             "below.") % {"n": left})  # fmt: skip
    return redirect("players:account")


@require_POST
@limited("code")
def signin_code(request):
    user = accounts.redeem_signin_code(code=request.POST.get("code", "")[:40])
    if user is None:
        return _signin_failed(request, _("That code is wrong, expired or already used."))
    _sign_in(request, user, "code")
    return redirect("players:account")


@limited("code", methods=("GET", "HEAD", "POST"))
def signin_link(request, token: str):
    """GET asks (a link previewer must not spend the code), POST signs in."""
    if request.method == "POST":
        user = accounts.redeem_signin_code(token=token)
        if user is not None:
            _sign_in(request, user, "code")
            return redirect("players:account")
        return _signin_failed(request, _("That code is wrong, expired or already used."))
    user = accounts.peek_signin_link(token)
    return render(request, "players/link.html", {"link_user": user}, status=200 if user else 404)


@require_POST
def signout(request):
    logout(request)
    return redirect("pages:home")


# --- the account page ------------------------------------------------------------------


@login_required
@require_GET
def account(request):
    from players import trainer

    user = request.user
    return render(
        request,
        "players/account.html",
        {
            "passkeys": Passkey.objects.filter(user=user).order_by("created_at"),
            "sessions": accounts.live_sessions(user),
            "current_session": request.session.session_key,
            "recovery_left": RecoveryCode.objects.filter(user=user, used_at=None).count(),
            "has_password": user.has_usable_password(),
            "trainer": trainer.summary(user),
        },
    )


@login_required
@require_POST
@limited("account")
def passkey_add_options(request):
    user = request.user
    existing = Passkey.objects.filter(user=user).values_list("credential_id", flat=True)
    try:
        options = passkeys.registration_options(
            request, user.get_username(), passkeys.webauthn_id_of(user), existing
        )
    except passkeys.CeremonyError as error:
        return _json_error(ceremony_message(error.reason))
    return HttpResponse(options, content_type="application/json")


@login_required
@require_POST
@limited("account")
def passkey_add_verify(request):
    try:
        credential = passkeys.parse_credential(request.body)
        pending, verified = passkeys.verify_registration(request, credential)
        if pending["user_name"] != request.user.get_username():
            raise passkeys.CeremonyError("expired")
        passkeys.save_passkey(request.user, verified, credential)
    except passkeys.CeremonyError as error:
        return _json_error(ceremony_message(error.reason))
    return JsonResponse({"next": reverse("players:account")})


@login_required
@require_POST
@limited("account")
def passkey_remove(request, passkey_id: int):
    user = request.user
    kept = Passkey.objects.filter(user=user)
    if not user.has_usable_password() and not kept.exclude(pk=passkey_id).exists():
        # Recovery codes alone would be the only way back in: keep it.
        messages.error(request, _("This is your only way to sign in: add another passkey first."))
        return redirect("players:account")
    kept.filter(pk=passkey_id).delete()
    return redirect("players:account")


@login_required
@require_POST
@limited("account")
def signout_everywhere(request):
    accounts.sign_out_everywhere(request.user)
    logout(request)
    return redirect("pages:home")


@login_required
@require_POST
@limited("account")
def new_code(request):
    code, token, _row = accounts.new_signin_code(request.user)
    link = request.build_absolute_uri(reverse("players:signin_link", args=[token]))
    minutes = int(accounts.code_lifetime().total_seconds() // 60)
    context = {"code": code, "link": link, "minutes": minutes, "qr": link_qr(link)}
    response = render(request, "players/new_code.html", context)
    response["Cache-Control"] = "no-store"
    return response


def link_qr(link: str) -> str:
    """The sign-in link as an inline SVG QR code (segno), for a phone's camera."""
    import segno
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    svg = segno.make(link, error="m").svg_inline(scale=4, border=4, omitsize=False)
    label = escape(_("QR code of the sign-in link"))
    # segno writes the SVG (paths only, no script or style); the label is escaped.
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1))


@login_required
@require_POST
@limited("account")
def new_recovery_codes(request):
    request.session[SHOW_CODES] = accounts.new_recovery_codes(request.user)
    return redirect("players:welcome")


# --- trainer progress, your data -------------------------------------------------------


@login_required
@require_POST
@limited("account")
def trainer_import(request):
    from players import trainer

    upload = request.FILES.get("file")
    if upload is None or upload.size > 8 * 1024 * 1024:
        messages.error(request, _("Choose the file the trainer exported."))
        return redirect("players:account")
    try:
        poems, log = trainer.parse(upload.read())
    except trainer.TrainerFileError:
        messages.error(request, _("That is not a trainer export, or it is damaged: nothing "
                                  "was changed."))  # fmt: skip
        return redirect("players:account")
    added = trainer.merge(request.user, poems, log)
    profile = request.user.player
    profile.keep_trainer = True
    profile.save(update_fields=["keep_trainer"])
    messages.info(request, _("Trainer progress kept: %(n)d new reviews.") % {"n": added})
    return redirect("players:account")


@login_required
@require_POST
@limited("account")
def trainer_forget(request):
    from players import trainer

    trainer.forget(request.user)
    profile = request.user.player
    profile.keep_trainer = False
    profile.save(update_fields=["keep_trainer"])
    messages.info(request, _("The trainer progress kept in your account was deleted."))
    return redirect("players:account")


@login_required
@require_POST
@limited("account")
def export_data(request):
    from players import data

    body = json.dumps(data.export(request.user), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="hyakunin-player.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
@limited("account")
def delete_account(request):
    from players import data, handles

    typed = request.POST.get("confirm", "")
    if handles.handle_key(typed) != request.user.player.handle_key:
        messages.error(request, _("Type your handle to delete the account."))
        return redirect("players:account")
    user = request.user
    logout(request)
    data.delete_account(user)
    messages.info(request, _("Your account and everything kept with it are deleted."))
    return redirect("pages:home")
