"""A software authenticator for server-side tests: real P-256 keys, real CBOR, real
signatures, so py_webauthn checks exactly what it checks for a browser (the browser test
uses Chromium's virtual authenticator instead). It can be told to sign for another origin or
to report a sign counter of its choosing."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    def __init__(self, origin: str, rp_id: str):
        self.origin, self.rp_id = origin, rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.counter = 0
        self.user_handle = b""

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})  # fmt: skip

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def register(self, options: dict, origin: str | None = None) -> dict:
        self.user_handle = unb64(options["user"]["id"])
        rp_hash = hashlib.sha256(options["rp"]["id"].encode()).digest()
        auth_data = (
            rp_hash + bytes([0x45]) + self.counter.to_bytes(4, "big") + bytes(16)
            + len(self.credential_id).to_bytes(2, "big") + self.credential_id + self._cose_key()
        )  # fmt: skip
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(client_data),
                         "attestationObject": b64(attestation), "transports": ["internal"]},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }  # fmt: skip

    def assert_(self, options: dict, origin: str | None = None, counter: int | None = None):
        self.counter = self.counter + 1 if counter is None else counter
        rp_hash = hashlib.sha256(options["rpId"].encode()).digest()
        auth_data = rp_hash + bytes([0x05]) + self.counter.to_bytes(4, "big")
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                         "signature": b64(signature), "userHandle": b64(self.user_handle)},
            "clientExtensionResults": {},
        }  # fmt: skip
