#!/usr/bin/env python3
"""A fake Google Play Integrity (classic tokens) and Firebase App Check for tokenvend's tests, on loopback, from
throw-away keys made at start (nothing checked in). Built with joserfc, independently of tokenvend's verifier.

    fake_play_integrity.py [--port 0]

Prints `PORT <n>` on stdout once listening; exits when its parent process ends (a suite's shared fake outlives
no test run).

Endpoints (JSON in and out):
- `GET /keys` -> `{"decryptionKey", "verificationKey", "certificateDigest"}`: standard base64, as the Play Console
  shows them: the raw 32-byte AES response-decryption key and the DER SubjectPublicKeyInfo of the P-256
  response-verification key; and the default verdict's certificate digest (base64url, as verdicts carry it).
- `POST /token {"nonce", "packageName", "payload"?, "wrongKey"?}` -> `{"token"}`: a classic integrity token, a JWS
  `ES256` inside a JWE `A256KW` + `A256GCM`. The verdict is a valid default for that nonce and package
  (`timestampMillis` now, as a string; `PLAY_RECOGNIZED`; `MEETS_DEVICE_INTEGRITY`; the default certificate
  digest) with `payload` merged over it member by member (objects merged deeply, anything else replaced; a
  `null` removes the member). `wrongKey`: `decryption` encrypts under another AES key, `signature` signs with
  another P-256 key.
- `GET /appcheck/jwks` -> the JWKS of the test RSA key (its `kid` set, `alg` RS256, `use` sig).
- `POST /appcheck/sign {"claims", "forged"?}` -> `{"token"}`: an RS256 JWT with header `kid` and `typ` JWT; with
  `forged`, signed by another RSA key under the same `kid`.

Started by Tests/AppIntegrityTesting/FakePlayIntegrity.swift. scripts/ensure-python-packages.sh installs joserfc
and cryptography.
"""

import base64
import copy
import hashlib
import json
import secrets
import sys
import time

import loopback_fake

try:
    from cryptography.hazmat.primitives import serialization
    from joserfc import jwe, jws, jwt
    from joserfc.jwk import ECKey, KeySet, OctKey, RSAKey
except ImportError:
    print("joserfc or cryptography is missing: run scripts/ensure-python-packages.sh (make test does)",
          file=sys.stderr)
    sys.exit(3)

APP_CHECK_KID = "fake-app-check-1"
# The SHA-256 of a made-up signing certificate, as verdicts carry it (base64url, no padding).
DEFAULT_CERTIFICATE_DIGEST = base64.urlsafe_b64encode(hashlib.sha256(b"fake signing certificate").digest()) \
    .decode().rstrip("=")


def b64(data):
    return base64.b64encode(data).decode()


def merge(base, overlay):
    """`overlay` merged over `base`: objects deeply, anything else replaced, `None` removes the member."""
    result = copy.deepcopy(base)
    for name, value in overlay.items():
        if value is None:
            result.pop(name, None)
        elif isinstance(value, dict) and isinstance(result.get(name), dict):
            result[name] = merge(result[name], value)
        else:
            result[name] = copy.deepcopy(value)
    return result


class FakePlayIntegrity:
    """The Play Console's keys, a stranger's keys for `wrongKey`, and the App Check RSA keys."""

    def __init__(self):
        self.decryption = secrets.token_bytes(32)
        self.other_decryption = secrets.token_bytes(32)
        self.signing = ECKey.generate_key("P-256")
        self.other_signing = ECKey.generate_key("P-256")
        self.app_check = RSAKey.generate_key(2048, parameters={"kid": APP_CHECK_KID, "alg": "RS256", "use": "sig"})
        self.other_app_check = RSAKey.generate_key(2048, parameters={"kid": APP_CHECK_KID})

    def keys(self):
        spki = self.signing.public_key.public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        return {"decryptionKey": b64(self.decryption), "verificationKey": b64(spki),
                "certificateDigest": DEFAULT_CERTIFICATE_DIGEST}

    def token(self, nonce, package_name, payload=None, wrong_key=None):
        verdict = {
            "requestDetails": {
                "requestPackageName": package_name,
                "timestampMillis": str(int(time.time() * 1000)),
                "nonce": nonce,
            },
            "appIntegrity": {
                "appRecognitionVerdict": "PLAY_RECOGNIZED",
                "packageName": package_name,
                "certificateSha256Digest": [DEFAULT_CERTIFICATE_DIGEST],
                "versionCode": "42",
            },
            "deviceIntegrity": {"deviceRecognitionVerdict": ["MEETS_DEVICE_INTEGRITY"]},
            "accountDetails": {"appLicensingVerdict": "LICENSED"},
        }
        verdict = merge(verdict, payload or {})
        signer = self.other_signing if wrong_key == "signature" else self.signing
        inner = jws.serialize_compact({"alg": "ES256"}, json.dumps(verdict).encode(), signer, algorithms=["ES256"])
        key = self.other_decryption if wrong_key == "decryption" else self.decryption
        return jwe.encrypt_compact({"alg": "A256KW", "enc": "A256GCM"}, inner.encode(), OctKey.import_key(key),
                                   algorithms=["A256KW", "A256GCM"])

    def jwks(self):
        return KeySet([self.app_check]).as_dict(private=False)

    def app_check_token(self, claims, forged=False):
        key = self.other_app_check if forged else self.app_check
        return jwt.encode({"alg": "RS256", "kid": APP_CHECK_KID, "typ": "JWT"}, claims, key, algorithms=["RS256"])


def routes(fake):
    """The fake's `GET` and `POST` routes for loopback_fake.json_handler."""

    def token(body):
        wrong_key = body.get("wrongKey")
        if wrong_key not in (None, "decryption", "signature"):
            raise ValueError(f"unknown wrongKey {wrong_key}")
        return {"token": fake.token(body["nonce"], body["packageName"], body.get("payload"), wrong_key)}

    def sign(body):
        return {"token": fake.app_check_token(body["claims"], bool(body.get("forged")))}

    return {"/keys": fake.keys, "/appcheck/jwks": fake.jwks}, {"/token": token, "/appcheck/sign": sign}


def main():
    arguments = loopback_fake.argument_parser("fake Play Integrity and Firebase App Check for tests").parse_args()
    loopback_fake.serve(loopback_fake.json_handler(*routes(FakePlayIntegrity())), arguments)


if __name__ == "__main__":
    main()
