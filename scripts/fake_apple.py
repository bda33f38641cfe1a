#!/usr/bin/env python3
"""A fake Sign in with Apple for tokenvend's tests: the REST API's token and revoke endpoints, a JWKS, and
Apple-signed ID tokens and server-to-server notifications, all on loopback.

    fake_apple.py --client-id C --team-id T --key-id K --p8-public PEM [--port 0]

`--p8-public` is the public half (SPKI PEM file) of the `.p8` key tokenvend signs its client secret with. Prints
`PORT <n>` on stdout once listening, then one JSON line per revoke call:
`{"token", "client_id", "token_type_hint", "secret_valid", "status"}`.

Endpoints:
- `GET /auth/keys`: the JWKS of its test RSA key (RS256, kid `fake-apple-1`).
- `POST /auth/token` (form): checks `client_id` and the `client_secret` JWT with PyJWT (ES256 with the `.p8`'s
  public half, header `kid` = K, `iss` = T, `sub` = C, `aud` = https://appleid.apple.com, `exp` and `iat`
  required): else 400 `invalid_client`; `grant_type` must be `authorization_code` (400 `unsupported_grant_type`);
  a code starting `bad-` is 400 `invalid_grant`; otherwise 200 with `refresh_token` `rt-<code>`.
- `POST /auth/revoke` (form): the same client check (400 `invalid_client`), records the call, answers 200 (or the
  status `/_control/fail` set for the next calls).
- `POST /_control/fail {"status": 503, "count": N}`: the next N revoke calls answer that status.
- `POST /_control/sign {"claims": {...}, "forged"?: true}`: the JWS (RS256, kid) of the claims, as the body
  (`forged`: signed with another key under the same kid).
- `GET /_control/revocations`: the JSON list of every revoke call so far.

Started by Tests/IdentityProvidersTesting/FakeApple.swift; scripts/ensure-python-packages.sh installs PyJWT and
cryptography.
"""

import argparse
import json
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
except ImportError:
    print("PyJWT or cryptography is missing: run scripts/ensure-python-packages.sh (make test does)", file=sys.stderr)
    sys.exit(3)

KID = "fake-apple-1"
APPLE = "https://appleid.apple.com"
MAX_BODY = 65536


def parse_arguments():
    parser = argparse.ArgumentParser(description="fake Sign in with Apple for tests")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--p8-public", required=True, help="SPKI PEM file: the public half of the .p8")
    return parser.parse_args()


class State:
    def __init__(self, arguments):
        self.arguments = arguments
        with open(arguments.p8_public, "rb") as handle:
            self.p8_public = serialization.load_pem_public_key(handle.read())
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.forger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.lock = threading.Lock()
        self.failures = []  # statuses for the next revoke calls
        self.revocations = []

    def jwks(self):
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        jwk.pop("key_ops", None)
        jwk.update({"kid": KID, "alg": "RS256", "use": "sig"})
        return {"keys": [jwk]}

    def sign(self, claims, forged):
        return jwt.encode(claims, self.forger if forged else self.key, algorithm="RS256", headers={"kid": KID})

    def client_secret_valid(self, form):
        """The client check Apple makes: client_id, and the client secret's signature, kid and claims."""
        if form.get("client_id") != self.arguments.client_id:
            return False
        secret = form.get("client_secret", "")
        try:
            header = jwt.get_unverified_header(secret)
            if header.get("alg") != "ES256" or header.get("kid") != self.arguments.key_id:
                return False
            claims = jwt.decode(
                secret, self.p8_public, algorithms=["ES256"], audience=APPLE, issuer=self.arguments.team_id,
                options={"require": ["iss", "sub", "aud", "exp", "iat"]})
        except jwt.PyJWTError:
            return False
        return claims.get("sub") == self.arguments.client_id


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, format, *args):
        pass

    def answer(self, status, body=b"", content_type="application/json"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(min(length, MAX_BODY))

    def form(self):
        pairs = urllib.parse.parse_qsl(self.body().decode("utf-8", "replace"), keep_blank_values=True)
        return dict(pairs)

    def do_GET(self):
        state = self.state
        if self.path == "/auth/keys":
            self.answer(200, state.jwks())
        elif self.path == "/_control/revocations":
            with state.lock:
                self.answer(200, list(state.revocations))
        else:
            self.answer(404, {"error": "not_found"})

    def do_POST(self):
        state = self.state
        if self.path == "/auth/token":
            self.token(state, self.form())
        elif self.path == "/auth/revoke":
            self.revoke(state, self.form())
        elif self.path == "/_control/fail":
            request = json.loads(self.body() or b"{}")
            with state.lock:
                state.failures = [int(request.get("status", 503))] * int(request.get("count", 1))
            self.answer(200, {})
        elif self.path == "/_control/sign":
            request = json.loads(self.body() or b"{}")
            self.answer(200, state.sign(request["claims"], bool(request.get("forged"))), "application/jwt")
        else:
            self.answer(404, {"error": "not_found"})

    def token(self, state, form):
        if not state.client_secret_valid(form):
            self.answer(400, {"error": "invalid_client"})
        elif form.get("grant_type") != "authorization_code":
            self.answer(400, {"error": "unsupported_grant_type"})
        elif form.get("code", "").startswith("bad-") or not form.get("code"):
            self.answer(400, {"error": "invalid_grant"})
        else:
            code = form["code"]
            self.answer(200, {
                "access_token": "at-" + code, "token_type": "Bearer", "expires_in": 3600,
                "refresh_token": "rt-" + code,
            })

    def revoke(self, state, form):
        valid = state.client_secret_valid(form)
        with state.lock:
            status = 200 if valid else 400
            if valid and state.failures:
                status = state.failures.pop(0)
            record = {
                "token": form.get("token"), "client_id": form.get("client_id"),
                "token_type_hint": form.get("token_type_hint"), "secret_valid": valid, "status": status,
            }
            state.revocations.append(record)
            print(json.dumps(record), flush=True)
        self.answer(status, {"error": "invalid_client"} if not valid else {} if status < 400 else {"error": "x"})


def main():
    arguments = parse_arguments()
    Handler.state = State(arguments)
    server = ThreadingHTTPServer((arguments.host, arguments.port), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
