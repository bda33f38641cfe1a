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

import argparse
import base64
import copy
import hashlib
import json
import os
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    from cryptography.hazmat.primitives import serialization
    from joserfc import jwe, jws, jwt
    from joserfc.jwk import ECKey, KeySet, OctKey, RSAKey
except ImportError:
    print("joserfc or cryptography is missing: run scripts/ensure-python-packages.sh (make test does)",
          file=sys.stderr)
    sys.exit(3)

MAX_BODY = 65536
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


def make_handler(fake):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/keys":
                self.answer(200, fake.keys())
            elif self.path == "/appcheck/jwks":
                self.answer(200, fake.jwks())
            else:
                self.answer(404, {"error": "not_found"})

        def do_POST(self):
            try:
                length = int(self.headers.get("Content-Length", "0"))
                if length > MAX_BODY:
                    raise ValueError("body too large")
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path == "/token":
                    wrong_key = body.get("wrongKey")
                    if wrong_key not in (None, "decryption", "signature"):
                        raise ValueError(f"unknown wrongKey {wrong_key}")
                    token = fake.token(body["nonce"], body["packageName"], body.get("payload"), wrong_key)
                    self.answer(200, {"token": token})
                elif self.path == "/appcheck/sign":
                    self.answer(200, {"token": fake.app_check_token(body["claims"], bool(body.get("forged")))})
                else:
                    self.answer(404, {"error": "not_found"})
            except (KeyError, ValueError, TypeError) as error:
                self.answer(400, {"error": str(error)})

    return Handler


def exit_with_parent(parent):
    """Ends the process once the parent that started it is gone (it is then re-parented)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description="fake Play Integrity and Firebase App Check for tests")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    server = ThreadingHTTPServer((arguments.host, arguments.port), make_handler(FakePlayIntegrity()))
    server.daemon_threads = True
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
