"""WebAuthn ceremonies through py_webauthn (docs/players.md). The browser side is
@simplewebauthn/browser (static/vendor/simplewebauthn).

The relying-party id is the request's host name (Django has checked it against
ALLOWED_HOSTS), or settings.PLAYERS_WEBAUTHN_RP_ID when set; the expected origin is the
page's own scheme and host. A WebAuthn rp id is a domain: an IP address is refused with
a clear error (browsers refuse it too, with a generic one).
"""

from __future__ import annotations

import ipaddress
import json

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from players.models import Passkey, Profile

REGISTER = "players.webauthn.register"
AUTHENTICATE = "players.webauthn.authenticate"


class CeremonyError(Exception):
    """A passkey ceremony that failed: `reason` is a code for the page's message."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def relying_party(request) -> tuple[str, str]:
    """(rp id, expected origin) for this request."""
    host = request.get_host()
    rp_id = getattr(settings, "PLAYERS_WEBAUTHN_RP_ID", "") or host.rsplit(":", 1)[0]
    if host.startswith("["):
        rp_id = host  # an IPv6 literal: refused below
    try:
        ipaddress.ip_address(rp_id.strip("[]"))
    except ValueError:
        pass
    else:
        raise CeremonyError("ip-host")
    scheme = "https" if request.is_secure() else "http"
    return rp_id, f"{scheme}://{host}"


def registration_options(request, user_name: str, webauthn_id: bytes, existing=()) -> str:
    """Options for navigator.credentials.create(); the challenge waits in the session."""
    rp_id, _origin = relying_party(request)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=str(settings.SITE_NAME),
        user_name=user_name,
        user_id=webauthn_id,
        user_display_name=user_name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=bytes(c)) for c in existing],
    )
    request.session[REGISTER] = {
        "challenge": _b64(options.challenge),
        "user_name": user_name,
        "webauthn_id": _b64(webauthn_id),
    }
    return options_to_json(options)


def verify_registration(request, credential: dict) -> tuple[dict, object]:
    """(the pending sign-up the options were made for, py_webauthn's VerifiedRegistration)."""
    pending = request.session.pop(REGISTER, None)
    if not pending:
        raise CeremonyError("expired")
    rp_id, origin = relying_party(request)
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(pending["challenge"]),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise CeremonyError("refused") from error
    return pending, verified


def save_passkey(user, verified, credential: dict) -> Passkey:
    transports = credential.get("response", {}).get("transports") or []
    return Passkey.objects.create(
        user=user,
        credential_id=verified.credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=[t for t in transports if isinstance(t, str)][:8],
    )


def authentication_options(request) -> str:
    """Options for navigator.credentials.get() with a discoverable passkey (no handle asked)."""
    rp_id, _origin = relying_party(request)
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    request.session[AUTHENTICATE] = _b64(options.challenge)
    return options_to_json(options)


def verify_authentication(request, credential: dict):
    """The user the assertion signs in, after every check py_webauthn makes (challenge,
    origin, rp id, signature, and a sign counter that must move forward)."""
    challenge = request.session.pop(AUTHENTICATE, None)
    if not challenge:
        raise CeremonyError("expired")
    rp_id, origin = relying_party(request)
    try:
        raw_id = base64url_to_bytes(credential["rawId"])
    except (KeyError, TypeError, ValueError) as error:
        raise CeremonyError("refused") from error
    with transaction.atomic():
        passkey = Passkey.objects.select_for_update().filter(credential_id=raw_id).first()
        if passkey is None:
            raise CeremonyError("unknown")
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=base64url_to_bytes(challenge),
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=bytes(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise CeremonyError("refused") from error
        passkey.sign_count = verified.new_sign_count
        passkey.last_used_at = timezone.now()
        passkey.save(update_fields=["sign_count", "last_used_at"])
    return passkey.user


def parse_credential(body: bytes) -> dict:
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise CeremonyError("refused") from error
    credential = data.get("credential") if isinstance(data, dict) else None
    if not isinstance(credential, dict):
        raise CeremonyError("refused")
    return credential


def webauthn_id_of(user) -> bytes:
    return bytes(Profile.objects.get(user=user).webauthn_id)


def _b64(raw: bytes) -> str:
    from webauthn.helpers import bytes_to_base64url

    return bytes_to_base64url(raw)
