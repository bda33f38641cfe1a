#!/usr/bin/env python3
"""Checks docs/openapi.yaml against the running server.

1. The document is valid OpenAPI 3.1 (openapi-spec-validator).
2. A real `tokenvend serve` (the debug build, or $TOKENVEND_BIN) is started on a free loopback port with a
   temporary database, a stream key, a fake Moss upstream, an identity provider's key set on loopback, and
   email through the `file` transport into the temporary folder (sign-in codes on): the email-code operations read
   their codes from the .eml files the outbox sender writes there.
3. A scripted session calls every documented operation; each answer's status must be documented for that
   operation, its JSON body must match the documented schema (JSON Schema 2020-12, $refs resolved in the
   document), and every response must carry X-Request-Id. Every documented operation must have been called.
   DPoP (issue 35): a session bound by a proof of a key made here is used and refreshed with proofs, and each
   refusal (no proof, a bound token as Bearer, an unbound one as DPoP, a malformed proof, another key) must answer
   its documented status and error code. Passkeys (issue 36): credentials made by scripts/soft_authenticator.py sign
   up, sign in, register and are listed, renamed and deleted, with the refusals' statuses and codes.

Exit 0 when all holds; 1 with one line per finding otherwise. Installs PyYAML, jsonschema and
openapi-spec-validator with pip when they are missing.
"""
import base64
import email
import email.policy
import hashlib
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from fake_moss import FakeMoss  # noqa: E402


def ensure_modules():
    try:
        import yaml, jsonschema, referencing, openapi_spec_validator, cryptography  # noqa: F401
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               "PyYAML", "jsonschema", "openapi-spec-validator", "cryptography"])


ensure_modules()
import yaml  # noqa: E402

from jsonschema import Draft202012Validator  # noqa: E402
from openapi_spec_validator import validate as validate_spec  # noqa: E402
from referencing import Registry, Resource  # noqa: E402
from referencing.jsonschema import DRAFT202012  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature  # noqa: E402

SPEC_URI = "urn:tokenvend:openapi"
STREAM_SECRET = "openapi-check-stream-secret-openapi-check-stream-secret-0123456789"
findings = []
called = set()
# An identity provider for POST /auth/idtoken: a P-256 key made here, its JWK Set served on loopback.
ID_KEY = ec.generate_private_key(ec.SECP256R1())
ID_ISSUER = "https://id.openapi.example"
# The app's DPoP key (issue 35), and another device's.
DPOP_KEY = ec.generate_private_key(ec.SECP256R1())
OTHER_DPOP_KEY = ec.generate_private_key(ec.SECP256R1())


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def id_jwks():
    numbers = ID_KEY.public_key().public_numbers()
    return json.dumps({"keys": [{"kty": "EC", "crv": "P-256", "kid": "openapi-1", "alg": "ES256", "use": "sig",
                                 "x": b64url(numbers.x.to_bytes(32, "big")),
                                 "y": b64url(numbers.y.to_bytes(32, "big"))}]}).encode()


def id_token(subject, email=None, nonce="openapi-nonce"):
    """An ES256 ID token of the test provider (nonce mode raw)."""
    now = int(time.time())
    claims = {"iss": ID_ISSUER, "aud": "openapi-app", "sub": subject, "iat": now, "exp": now + 600, "nonce": nonce}
    if email:
        claims.update({"email": email, "email_verified": True})
    header = {"alg": "ES256", "kid": "openapi-1", "typ": "JWT"}
    return es256(ID_KEY, header, claims)


def es256(key, header, claims):
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def dpop_proof(method, url, access_token=None, key=DPOP_KEY):
    """A DPoP proof (RFC 9449 §4.2) for one request: a fresh jti, iat now, ath when an access token goes along."""
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")),
           "y": b64url(numbers.y.to_bytes(32, "big"))}
    claims = {"jti": b64url(os.urandom(16)), "htm": method, "htu": url, "iat": int(time.time())}
    if access_token:
        claims["ath"] = b64url(hashlib.sha256(access_token.encode()).digest())
    return es256(key, {"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}, claims)


class Keys(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = id_jwks()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def pointer_escape(part):
    return str(part).replace("~", "~0").replace("/", "~1")


def resolve(spec, node, pointer):
    """Follows local $refs; returns the node and its JSON pointer in the document."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        pointer = ref[1:]
        node = spec
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node, pointer


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Leaves a 302 to the caller: the browser sign-in's redirects are answers under test, not hops."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


# One vendor per answer shape and refusal of POST /vend/{vendor}; "later" has no secret (503). Each vendor has a
# secret of its own: tokenvend refuses to start when two places share a key.
VENDOR_SECRET = "openapi-vendor-secret-openapi-vendor-secret"
VENDORS = {
    "chat": {"preset": "stream-chat", "apiKey": "openapi", "apiSecret": "chat-" + VENDOR_SECRET},
    "video": {"preset": "livekit", "apiKey": "openapi", "apiSecret": "video-" + VENDOR_SECRET,
              "serverURL": "wss://video.example.com"},
    "engagement": {"preset": "bloomreach-customer", "keyId": "openapi", "secret": "engagement-" + VENDOR_SECRET},
    "later": {"preset": "stream-chat", "apiKey": "later"},
}


class Outbox:
    """The `file` transport's folder: each message an .eml file, written by the server's outbox sender."""

    def __init__(self, directory):
        self.directory = directory
        self.seen = set()

    def code(self, recipient):
        """The code of the next unseen message to `recipient`: the only run of six digits in its plain text.
        Waits for the sender (it writes the file just after the request answered), at most 20 s."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            names = sorted(os.listdir(self.directory)) if os.path.isdir(self.directory) else []
            for name in names:
                if name in self.seen or not name.endswith(".eml"):
                    continue
                with open(os.path.join(self.directory, name), "rb") as handle:
                    message = email.message_from_bytes(handle.read(), policy=email.policy.default)
                if recipient not in str(message["To"]):
                    continue
                self.seen.add(name)
                runs = re.findall(r"(?<![0-9])[0-9]{6}(?![0-9])", message.get_body(("plain",)).get_content())
                if len(runs) != 1:
                    findings.append(f"message to {recipient}: {len(runs)} six-digit runs in the plain text")
                return runs[0] if runs else "000000"
            time.sleep(0.05)
        findings.append(f"no message to {recipient} in {self.directory} within 20 s")
        return "000000"


class Checker:
    def __init__(self, spec, port):
        self.spec = spec
        self.base = f"http://127.0.0.1:{port}"
        self.registry = Registry().with_resource(SPEC_URI, Resource(contents=spec, specification=DRAFT202012))

    def call(self, method, template, path=None, headers=None, body=None, expect=None):
        """Sends one request and checks the answer against the operation `method template`."""
        path = path or template
        request = urllib.request.Request(self.base + path, method=method, headers=headers or {})
        if body is not None:
            request.data = body if isinstance(body, bytes) else json.dumps(body).encode()
            if "Content-Type" not in (headers or {}):
                request.add_header("Content-Type", "application/json")
        try:
            with OPENER.open(request, timeout=20) as response:
                status, answer_headers, data = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, data = error.code, error.headers, error.read()
        called.add((method.lower(), template))
        where = f"{method} {path} -> {status}"
        if expect is not None and status != expect:
            findings.append(f"{where}: expected {expect}")
        if not answer_headers.get("X-Request-Id"):
            findings.append(f"{where}: no X-Request-Id")
        operation = self.spec["paths"].get(template, {}).get(method.lower())
        if operation is None:
            findings.append(f"{where}: operation not documented")
            return status, data
        responses_pointer = f"/paths/{pointer_escape(template)}/{method.lower()}/responses"
        documented = operation["responses"].get(str(status))
        if documented is None:
            findings.append(f"{where}: status not documented")
            return status, data
        documented, pointer = resolve(self.spec, documented, f"{responses_pointer}/{status}")
        content = documented.get("content", {})
        if not content:
            if data:
                findings.append(f"{where}: documented without a body, got {len(data)} bytes")
            return status, data
        json_types = [name for name in content if name.startswith("application/json")]
        if "text/html" in content:
            if not answer_headers.get("Content-Type", "").startswith("text/html"):
                findings.append(f"{where}: expected text/html")
            if "default-src 'none'" not in (answer_headers.get("Content-Security-Policy") or ""):
                findings.append(f"{where}: no Content-Security-Policy with default-src 'none'")
            return status, data
        if not json_types:
            if not answer_headers.get("Content-Type", "").startswith("text/plain"):
                findings.append(f"{where}: expected text/plain")
            return status, data
        if not answer_headers.get("Content-Type", "").startswith("application/json"):
            findings.append(f"{where}: Content-Type {answer_headers.get('Content-Type')!r}")
        schema_pointer = f"{pointer}/content/{pointer_escape(json_types[0])}/schema"
        validator = Draft202012Validator({"$ref": f"{SPEC_URI}#{schema_pointer}"}, registry=self.registry)
        try:
            instance = json.loads(data)
        except ValueError:
            findings.append(f"{where}: body is not JSON")
            return status, data
        for error in validator.iter_errors(instance):
            # The message quotes the instance, which may hold tokens: name only the failing keyword and place.
            findings.append(f"{where}: schema {error.validator!r} failed at {list(error.absolute_path)}")
        return status, data


def browser_sign_in(check):
    """The browser flow's three operations, with the `github` preset (explicit endpoints: no network needed)."""
    challenge = b64url(hashlib.sha256(b"openapi-verifier-0123456789012345678901234567890").digest())
    redirect = urllib.parse.quote("com.example.openapi:/cb", safe="")
    start = (f"/auth/oauth/github?redirect_uri={redirect}&code_challenge={challenge}"
             "&code_challenge_method=S256&state=openapi-state")
    check.call("GET", "/auth/oauth/{provider}", path=start, expect=302)
    check.call("GET", "/auth/oauth/{provider}", path=start.replace("S256", "plain"), expect=400)
    check.call("GET", "/auth/oauth/{provider}", path=start.replace("openapi%3A", "evil%3A"), expect=400)
    check.call("GET", "/auth/oauth/{provider}/callback", path="/auth/oauth/github/callback?code=x&state=unknown",
               expect=400)
    code = {"grant_type": "authorization_code", "code": "never-issued", "code_verifier": "v" * 43,
            "redirect_uri": "com.example.openapi:/cb"}
    check.call("POST", "/auth/token", body=code, expect=400)
    check.call("POST", "/auth/token", body=urllib.parse.urlencode(code).encode(),
               headers={"Content-Type": "application/x-www-form-urlencoded"}, expect=400)
    check.call("POST", "/auth/token", body={"grant_type": "password"}, expect=400)


def email_codes(check, outbox, bearer, password):
    """The nine email-code operations, with codes read from the file transport's messages."""
    json_body = lambda data: json.loads(data)  # noqa: E731
    other = "not the code"
    check.call("POST", "/auth/email/verification", headers=bearer, expect=202)
    code = outbox.code("openapi@example.com")
    check.call("POST", "/auth/email/verification/confirm", headers=bearer, body={"code": "000000"}, expect=400)
    check.call("POST", "/auth/email/verification/confirm", headers=bearer, body={"code": other}, expect=400)
    _, data = check.call("POST", "/auth/email/verification/confirm", headers=bearer, body={"code": code},
                         expect=200)
    if not json_body(data).get("user", {}).get("emailVerified"):
        findings.append("POST /auth/email/verification/confirm: emailVerified is not true")
    check.call("POST", "/auth/email/verification/confirm", headers=bearer, body={"code": code}, expect=400)
    check.call("POST", "/auth/email/verification", expect=401)

    reset_user = {"email": "reset@example.com", "password": "openapi reset password 1"}
    check.call("POST", "/auth/register", body=reset_user, expect=201)
    check.call("POST", "/auth/password/reset", body={"email": reset_user["email"]}, expect=202)
    check.call("POST", "/auth/password/reset", body={"email": "nobody@example.com"}, expect=202)
    check.call("POST", "/auth/password/reset", body={"email": "not an address"}, expect=400)
    check.call("POST", "/auth/password/reset", body=b"x", headers={"Content-Type": "text/plain"}, expect=415)
    code = outbox.code(reset_user["email"])
    new_password = "openapi reset password 2"
    check.call("POST", "/auth/password/reset/confirm", body={**reset_user, "code": "000000",
                                                             "newPassword": new_password, "password": None},
               expect=400)
    check.call("POST", "/auth/password/reset/confirm",
               body={"email": reset_user["email"], "code": "000000", "newPassword": new_password}, expect=400)
    _, data = check.call("POST", "/auth/password/reset/confirm",
                         body={"email": reset_user["email"], "code": code, "newPassword": new_password},
                         expect=200)
    reset_bearer = {"Authorization": f"Bearer {json_body(data).get('accessToken', '')}"}
    check.call("POST", "/auth/password/change", headers=reset_bearer,
               body={"currentPassword": "wrong password 123", "newPassword": "openapi reset password 3"}, expect=401)
    check.call("POST", "/auth/password/change", headers=reset_bearer,
               body={"currentPassword": new_password, "newPassword": "1qaz2wsx3edc"}, expect=400)
    check.call("POST", "/auth/password/change", headers=reset_bearer,
               body={"currentPassword": new_password, "newPassword": "openapi reset password 3"}, expect=200)
    check.call("POST", "/auth/password/change", body={"currentPassword": "x", "newPassword": "y"}, expect=401)

    check.call("POST", "/auth/email/code", body={"email": "codes@example.com"}, expect=202)
    code = outbox.code("codes@example.com")
    check.call("POST", "/auth/email/code/confirm", body={"email": "codes@example.com", "code": "000000"}, expect=400)
    _, data = check.call("POST", "/auth/email/code/confirm", body={"email": "codes@example.com", "code": code},
                         expect=200)
    if json_body(data).get("created") is not True:
        findings.append("POST /auth/email/code/confirm for a new address: created is not true")

    check.call("POST", "/auth/email/change", headers=bearer,
               body={"newEmail": "tenant@example.com", "currentPassword": password}, expect=409)
    check.call("POST", "/auth/email/change", headers=bearer,
               body={"newEmail": "openapi-new@example.com", "currentPassword": "wrong password 123"}, expect=401)
    check.call("POST", "/auth/email/change", headers=bearer,
               body={"newEmail": "openapi-new@example.com", "currentPassword": password}, expect=202)
    code = outbox.code("openapi-new@example.com")
    check.call("POST", "/auth/email/change/confirm", headers=bearer, body={"code": "000000"}, expect=400)
    _, data = check.call("POST", "/auth/email/change/confirm", headers=bearer, body={"code": code}, expect=200)
    if json_body(data).get("user", {}).get("email") != "openapi-new@example.com":
        findings.append("POST /auth/email/change/confirm: the user's email did not change")


def error_code(data):
    """The `error` member of an error body, or None."""
    try:
        return json.loads(data).get("error")
    except ValueError:
        return None


def expect_error(what, data, code):
    if error_code(data) != code:
        findings.append(f"{what}: expected {code}, got {error_code(data)}")


def dpop(check, user, bearer):
    """DPoP (issue 35): a session bound at login, used and refreshed with proofs, and each refusal's status."""
    url = lambda path: check.base + path  # noqa: E731
    _, data = check.call("POST", "/auth/login", body=user, headers={"DPoP": dpop_proof("POST", url("/auth/login"))},
                         expect=200)
    tokens = json.loads(data)
    if tokens.get("tokenType") != "DPoP":
        findings.append(f"POST /auth/login with a DPoP proof: tokenType {tokens.get('tokenType')!r}, not DPoP")
    access, refresh = tokens.get("accessToken", ""), tokens.get("refreshToken", "")
    bound = {"Authorization": f"DPoP {access}"}
    check.call("GET", "/auth/me", headers={**bound, "DPoP": dpop_proof("GET", url("/auth/me"), access)}, expect=200)
    check.call("POST", "/stream-token", expect=200,
               headers={**bound, "DPoP": dpop_proof("POST", url("/stream-token"), access)})
    _, data = check.call("GET", "/auth/me", headers=bound, expect=401)
    expect_error("GET /auth/me with a bound token and no proof", data, "invalid_dpop_proof")
    _, data = check.call("GET", "/auth/me", headers={"Authorization": f"Bearer {access}"}, expect=401)
    expect_error("GET /auth/me with a bound token as Bearer", data, "invalid_token")
    _, data = check.call("GET", "/auth/me", expect=401, headers={
        "Authorization": "DPoP " + bearer["Authorization"].split(" ", 1)[1],
        "DPoP": dpop_proof("GET", url("/auth/me"), bearer["Authorization"].split(" ", 1)[1])})
    expect_error("GET /auth/me with an unbound token as DPoP", data, "invalid_token")
    _, data = check.call("POST", "/auth/login", body=user, headers={"DPoP": "not.a.proof"}, expect=400)
    expect_error("POST /auth/login with a malformed DPoP proof", data, "invalid_dpop_proof")
    _, data = check.call("POST", "/auth/refresh", body={"refreshToken": refresh}, expect=400)
    expect_error("POST /auth/refresh of a bound session without a proof", data, "invalid_dpop_proof")
    _, data = check.call("POST", "/auth/refresh", body={"refreshToken": refresh}, expect=401,
                         headers={"DPoP": dpop_proof("POST", url("/auth/refresh"), key=OTHER_DPOP_KEY)})
    expect_error("POST /auth/refresh of a bound session with another key", data, "invalid_grant")
    _, data = check.call("POST", "/auth/refresh", body={"refreshToken": refresh}, expect=200,
                         headers={"DPoP": dpop_proof("POST", url("/auth/refresh"))})
    if json.loads(data).get("tokenType") != "DPoP":
        findings.append("POST /auth/refresh of a bound session: tokenType is not DPoP")


PASSKEY_RP_ID = "example.com"
PASSKEY_ORIGIN = "https://example.com"
PASSKEY_APP_ID = "ABCDE12345.com.example.openapi"
PASSKEY_FINGERPRINT = ":".join(f"{byte:02X}" for byte in range(32))


def passkeys(check, bearer):
    """Passkeys (issue 36): the association files, sign-up, sign-in, adding one to a password account, list, rename,
    delete and the last-sign-in-method refusal, with credentials made by scripts/soft_authenticator.py."""
    import soft_authenticator  # scripts/ is on sys.path; cryptography and cbor2 come with ensure-python-packages

    check.call("GET", "/.well-known/apple-app-site-association", expect=200)
    check.call("GET", "/.well-known/assetlinks.json", expect=200)
    authenticator = soft_authenticator.SoftAuthenticator()
    # A new account without an email: its passkey is its only way in.
    _, data = check.call("POST", "/auth/passkeys/signup/options", body={}, expect=200)
    registration, _ = authenticator.create(json.loads(data), PASSKEY_ORIGIN)
    _, data = check.call("POST", "/auth/passkeys/signup", body={"credential": registration, "name": "Phone"},
                         expect=200)
    signed_up = json.loads(data)
    if signed_up.get("created") is not True:
        findings.append("POST /auth/passkeys/signup: created is not true")
    passkey_bearer = {"Authorization": f"Bearer {signed_up.get('accessToken', '')}"}
    _, data = check.call("POST", "/auth/passkeys/signup/options", body={"email": "openapi@example.com"}, expect=409)
    expect_error("POST /auth/passkeys/signup/options with a registered email", data, "email_taken")
    _, data = check.call("POST", "/auth/passkeys/authentication/options", expect=200)
    assertion = authenticator.get(json.loads(data), PASSKEY_ORIGIN)
    check.call("POST", "/auth/passkeys/authentication", body={"credential": assertion}, expect=200)
    _, data = check.call("POST", "/auth/passkeys/authentication", body={"credential": assertion}, expect=401)
    expect_error("POST /auth/passkeys/authentication replayed", data, "invalid_credential")
    check.call("POST", "/auth/passkeys/authentication", body={"credential": {"id": "x"}}, expect=400)
    # A passkey added to the password account.
    check.call("POST", "/auth/passkeys/registration/options", expect=401)
    _, data = check.call("POST", "/auth/passkeys/registration/options", headers=bearer, body={}, expect=200)
    registration, _ = authenticator.create(json.loads(data), PASSKEY_ORIGIN)
    _, data = check.call("POST", "/auth/passkeys/registration", headers=bearer, body={"credential": registration},
                         expect=201)
    added = json.loads(data).get("passkey", {}).get("id", "")
    _, data = check.call("POST", "/auth/passkeys/registration", headers=bearer, body={"credential": registration},
                         expect=401)
    expect_error("POST /auth/passkeys/registration replayed", data, "invalid_credential")
    _, data = check.call("GET", "/auth/passkeys", headers=bearer, expect=200)
    if [passkey["id"] for passkey in json.loads(data).get("passkeys", [])] != [added]:
        findings.append("GET /auth/passkeys: the added passkey is not the one listed")
    check.call("PATCH", "/auth/passkeys/{id}", path=f"/auth/passkeys/{added}", headers=bearer,
               body={"name": "Laptop"}, expect=200)
    check.call("PATCH", "/auth/passkeys/{id}", path=f"/auth/passkeys/{added}", headers=bearer, body={"name": ""},
               expect=400)
    check.call("PATCH", "/auth/passkeys/{id}", path=f"/auth/passkeys/{added}", headers=passkey_bearer,
               body={"name": "Mine"}, expect=404)
    check.call("DELETE", "/auth/passkeys/{id}", path=f"/auth/passkeys/{added}", headers=bearer, expect=204)
    check.call("DELETE", "/auth/passkeys/{id}", path=f"/auth/passkeys/{added}", headers=bearer, expect=404)
    _, data = check.call("GET", "/auth/passkeys", headers=passkey_bearer, expect=200)
    only = [passkey["id"] for passkey in json.loads(data).get("passkeys", [])]
    if len(only) != 1:
        findings.append(f"GET /auth/passkeys of the passkey account: {len(only)} passkeys, not 1")
    else:
        _, data = check.call("DELETE", "/auth/passkeys/{id}", path=f"/auth/passkeys/{only[0]}",
                             headers=passkey_bearer, expect=409)
        expect_error("DELETE /auth/passkeys/{id} of the last way in", data, "last_sign_in_method")


def account_deletion(check, outbox):
    """The deletion operations (issue 33): in the app, by code, the page's three steps, Apple's notifications."""
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    leaving = {"email": "leaving@example.com", "password": "openapi leaving password 1"}
    check.call("POST", "/auth/register", body=leaving, expect=201)
    _, data = check.call("POST", "/auth/login", body=leaving, expect=200)
    bearer = {"Authorization": f"Bearer {json.loads(data)['accessToken']}"}
    check.call("DELETE", "/auth/account", expect=401)
    _, data = check.call("DELETE", "/auth/account", headers=bearer, body={}, expect=401)
    if json.loads(data).get("error") != "reauthentication_required":
        findings.append("DELETE /auth/account without the password: expected reauthentication_required")
    check.call("DELETE", "/auth/account", headers=bearer, body={"password": "not the password"}, expect=401)
    check.call("DELETE", "/auth/account", headers=bearer, body={"extra": 1}, expect=400)
    check.call("DELETE", "/auth/account", headers={**bearer, "Content-Type": "text/plain"}, body=b"x", expect=415)
    _, data = check.call("DELETE", "/auth/account", headers=bearer, body={"password": leaving["password"]},
                         expect=200)
    if json.loads(data) != {"deleted": True}:
        findings.append("DELETE /auth/account: the body is not {\"deleted\": true}")
    check.call("DELETE", "/auth/account", headers=bearer, body={"password": leaving["password"]}, expect=401)

    check.call("POST", "/auth/register", body={**leaving, "email": "by-code@example.com"}, expect=201)
    check.call("POST", "/auth/account/deletion", body={"email": "by-code@example.com"}, expect=202)
    check.call("POST", "/auth/account/deletion", body=b"email=nobody%40example.com", headers=form, expect=202)
    check.call("POST", "/auth/account/deletion", body={"email": "not an address"}, expect=400)
    check.call("POST", "/auth/account/deletion", body=b"x", headers={"Content-Type": "text/plain"}, expect=415)
    code = outbox.code("by-code@example.com")
    check.call("POST", "/auth/account/deletion/confirm", body={"email": "by-code@example.com", "code": "000000"},
               expect=400)
    check.call("POST", "/auth/account/deletion/confirm", body={"email": "by-code@example.com", "code": code},
               expect=200)
    check.call("POST", "/auth/account/deletion/confirm", body={"email": "by-code@example.com", "code": code},
               expect=400)

    check.call("POST", "/auth/register", body={**leaving, "email": "by-page@example.com"}, expect=201)
    check.call("GET", "/account/delete", expect=200)
    check.call("POST", "/account/delete", body=b"email=by-page%40example.com", headers=form, expect=200)
    check.call("POST", "/account/delete", body=b"email=not+an+address", headers=form, expect=400)
    code = outbox.code("by-page@example.com")
    check.call("POST", "/account/delete/confirm", body=b"email=by-page%40example.com&code=000000", headers=form,
               expect=400)
    check.call("POST", "/account/delete/confirm", headers=form, expect=200,
               body=urllib.parse.urlencode({"email": "by-page@example.com", "code": code}).encode())
    check.call("POST", "/auth/login", body={**leaving, "email": "by-page@example.com"}, expect=401)
    check.call("POST", "/auth/apple/notifications", body={"payload": "not.a.jws"}, expect=400)
    check.call("POST", "/auth/apple/notifications", body={"other": 1}, expect=400)


def scenario(check, outbox):
    json_body = lambda data: json.loads(data)  # noqa: E731
    check.call("GET", "/healthz", expect=200)
    check.call("GET", "/readyz", expect=200)
    check.call("GET", "/metrics", expect=200)
    _, _ = check.call("GET", "/.well-known/jwks.json", expect=200)
    etag = urllib.request.urlopen(check.base + "/.well-known/jwks.json", timeout=20).headers.get("ETag", "")
    check.call("GET", "/.well-known/jwks.json", headers={"If-None-Match": etag}, expect=304)
    check.call("GET", "/.well-known/jwks.json", headers={"If-None-Match": '"stale"'}, expect=200)
    check.call("GET", "/.well-known/openid-configuration", expect=404)
    user = {"email": "openapi@example.com", "password": "openapi password 1"}
    check.call("POST", "/auth/register", body=user, expect=201)
    check.call("POST", "/auth/register", body=user, expect=409)
    check.call("POST", "/auth/register", body={"email": "nope", "password": "x"}, expect=400)
    _, data = check.call("POST", "/auth/register", body={"email": "weak@example.com", "password": "1qaz2wsx3edc"},
                         expect=400)
    if json.loads(data).get("error") != "weak_password":
        findings.append("POST /auth/register with a common password: expected weak_password")
    check.call("POST", "/auth/register", body=b"email=x", headers={"Content-Type": "text/plain"}, expect=415)
    # Tenants are the operator's (issue 30): a non-null tenantId is refused and creates nothing; null is accepted.
    _, data = check.call("POST", "/auth/register", body={**user, "email": "tenant@example.com", "tenantId": "acme"},
                         expect=400)
    if json.loads(data).get("error") != "invalid_request":
        findings.append("POST /auth/register with a tenantId: expected invalid_request")
    check.call("POST", "/auth/register", body={**user, "email": "tenant@example.com", "tenantId": None}, expect=201)
    _, data = check.call("POST", "/auth/login", body=user, headers={"X-Auth-Strategy": "bearer"}, expect=200)
    tokens = json_body(data)
    bearer = {"Authorization": f"Bearer {tokens['accessToken']}"}
    check.call("POST", "/auth/login", body=user, headers={"X-Auth-Strategy": "cookie"}, expect=200)
    check.call("POST", "/auth/login", body={**user, "password": "wrong password"}, expect=401)
    def nonce():
        """A server-issued nonce (POST /auth/nonce), as an app fetches one before each native sign-in."""
        _, data = check.call("POST", "/auth/nonce", expect=200)
        return json_body(data)["nonce"]

    check.call("POST", "/auth/nonce", body={}, expect=200)
    check.call("POST", "/auth/nonce", body={"extra": 1}, expect=400)
    check.call("POST", "/auth/nonce", body=b"x", headers={"Content-Type": "text/plain"}, expect=415)
    first = nonce()
    signed = id_token("openapi-subject-1", nonce=first)
    check.call("POST", "/auth/idtoken", body={"provider": "openapi", "idToken": signed, "nonce": first},
               expect=200)
    check.call("POST", "/auth/idtoken", body={"provider": "openapi", "idToken": signed, "nonce": first},
               expect=401)
    second = nonce()
    check.call("POST", "/auth/idtoken", headers={"X-Auth-Strategy": "cookie"},
               body={"provider": "openapi", "idToken": id_token("openapi-subject-2", nonce=second), "nonce": second,
                     "name": {"givenName": "Ada", "familyName": None}}, expect=200)
    third = nonce()
    check.call("POST", "/auth/idtoken", body={"provider": "openapi", "nonce": third,
                                              "idToken": id_token("openapi-subject-3", email=user["email"],
                                                                  nonce=third)},
               expect=409)
    check.call("POST", "/auth/idtoken", body={"provider": "nope", "idToken": signed}, expect=400)
    check.call("POST", "/auth/idtoken", body={"provider": "down", "idToken": signed, "nonce": "openapi-nonce"},
               expect=503)
    check.call("POST", "/auth/idtoken", body=b"x", headers={"Content-Type": "text/plain"}, expect=415)
    browser_sign_in(check)
    check.call("GET", "/auth/me", headers=bearer, expect=200)
    check.call("GET", "/auth/me", expect=401)
    dpop(check, user, bearer)
    passkeys(check, bearer)
    _, data = check.call("GET", "/auth/sessions", headers=bearer, expect=200)
    other = [s["id"] for s in json_body(data) if not s["current"]]
    check.call("GET", "/auth/sessions", path="/auth/sessions?limit=1", headers=bearer, expect=200)
    check.call("GET", "/auth/sessions", path="/auth/sessions?limit=0", headers=bearer, expect=400)
    check.call("GET", "/auth/sessions", path="/auth/sessions?cursor=nope", headers=bearer, expect=400)
    check.call("POST", "/stream-token", headers=bearer, expect=200)
    check.call("POST", "/stream-token", headers=bearer, body={"customerIds": {"registered": "x@example.com"}},
               expect=403)
    check.call("POST", "/stream-token", headers=bearer, body={"customerIds": 1}, expect=400)
    check.call("GET", "/moss-token", headers=bearer, expect=200)
    check.call("GET", "/moss-token", expect=401)
    # App integrity is not configured on this server: the exchange endpoints answer 404, and the gated routes
    # ignore X-App-Integrity (their mode is `off`); the end-to-end Swift tests cover the configured answers.
    check.call("GET", "/moss-token", headers={**bearer, "X-App-Integrity": "debug:openapi"}, expect=200)
    check.call("POST", "/integrity/challenge", expect=404)
    check.call("POST", "/integrity/apple/attest", body={"keyId": "a", "attestation": "b", "challenge": "c"},
               expect=404)
    check.call("POST", "/integrity/apple/assert", body={"keyId": "a", "assertion": "b", "challenge": "c"},
               expect=404)
    check.call("POST", "/integrity/android", body={"integrityToken": "a", "challenge": "c"}, expect=404)
    check.call("POST", "/vend/{vendor}", path="/vend/chat", headers=bearer, expect=200)
    check.call("POST", "/vend/{vendor}", path="/vend/video", headers=bearer, body={"room_name": "lobby-1"},
               expect=201)
    check.call("POST", "/vend/{vendor}", path="/vend/video", headers=bearer, body={"room": "lobby-1"}, expect=400)
    check.call("POST", "/vend/{vendor}", path="/vend/engagement", headers=bearer,
               body={"customerIds": {"registered": "x@example.com"}}, expect=403)
    check.call("POST", "/vend/{vendor}", path="/vend/nobody", headers=bearer, expect=404)
    check.call("POST", "/vend/{vendor}", path="/vend/later", headers=bearer, expect=503)
    check.call("POST", "/vend/{vendor}", path="/vend/chat", expect=401)
    _, data = check.call("POST", "/auth/refresh", body={"refreshToken": tokens["refreshToken"]}, expect=200)
    check.call("POST", "/auth/refresh", body={"refreshToken": "garbage"}, expect=401)
    bearer = {"Authorization": f"Bearer {json_body(data)['accessToken']}"}
    if other:
        check.call("DELETE", "/auth/sessions/{id}", path=f"/auth/sessions/{other[0]}", headers=bearer, expect=204)
    check.call("DELETE", "/auth/sessions/{id}", path="/auth/sessions/00000000-0000-0000-0000-000000000000",
               headers=bearer, expect=404)
    email_codes(check, outbox, bearer, user["password"])
    account_deletion(check, outbox)
    check.call("POST", "/auth/logout", path="/auth/logout?scope=local", headers=bearer, expect=204)
    check.call("POST", "/auth/logout", expect=401)


def main():
    spec = yaml.safe_load(open(os.path.join(ROOT, "docs/openapi.yaml")))
    validate_spec(spec)
    binary = os.path.abspath(os.environ.get("TOKENVEND_BIN", os.path.join(ROOT, ".build/debug/tokenvend")))
    if not os.access(binary, os.X_OK):
        print(f"check-openapi: no tokenvend binary at {binary} (run swift build first)", file=sys.stderr)
        return 1
    moss = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeMoss)
    threading.Thread(target=moss.serve_forever, daemon=True).start()
    keys = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Keys)
    threading.Thread(target=keys.serve_forever, daemon=True).start()
    port = free_port()
    providers = {
        "openapi": {"issuers": [ID_ISSUER], "audiences": ["openapi-app"], "nonce": "raw", "algorithms": ["ES256"],
                    "jwksURL": f"http://127.0.0.1:{keys.server_address[1]}/keys"},
        "down": {"issuers": [ID_ISSUER], "audiences": ["openapi-down-app"], "nonce": "raw", "algorithms": ["ES256"],
                 "jwksURL": f"http://127.0.0.1:{free_port()}/keys"},
        "github": {"preset": "github", "clientId": "openapi-client", "clientSecret": "openapi-client-secret",
                   "redirectURIs": ["com.example.openapi:/cb"]},
    }
    with tempfile.TemporaryDirectory() as directory:
        # Only the settings below: an inherited TOKENVEND_* (such as TOKENVEND_BIN) is not a server key.
        environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
        environment.update({
            "TOKENVEND_SERVER_PORT": str(port),
            "TOKENVEND_DATABASE_PATH": os.path.join(directory, "tokenvend.sqlite"),
            "TOKENVEND_PASSWORD_TIME_COST": "1", "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            "TOKENVEND_STREAM_KEYS": json.dumps([{"kid": "openapi", "secret": STREAM_SECRET}]),
            "TOKENVEND_MOSS_PROJECT_ID": "openapi", "TOKENVEND_MOSS_PROJECT_KEY": "openapi-project-key",
            "TOKENVEND_MOSS_AUTH_URL": f"http://127.0.0.1:{moss.server_address[1]}/identity/auth/token",
            "TOKENVEND_IDENTITY_PROVIDERS": json.dumps(providers),
            "TOKENVEND_VENDORS": json.dumps(VENDORS),
            "TOKENVEND_SERVER_PUBLIC_URL": f"http://127.0.0.1:{port}",
            # The file transport (the default without an SMTP URL), into the temporary folder; sign-in codes on.
            "TOKENVEND_EMAIL_TRANSPORT": "file",
            "TOKENVEND_EMAIL_FILE_DIRECTORY": os.path.join(directory, "outbox"),
            "TOKENVEND_EMAIL_SIGN_IN_CODES": "true",
            # The scripted session sends more than the default 60 limited requests a minute from one address.
            "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000",
            # Passkeys for a web origin, an iOS app and an Android app (the soft authenticator signs for the origin).
            "TOKENVEND_PASSKEYS_RP_ID": PASSKEY_RP_ID,
            "TOKENVEND_PASSKEYS_ORIGINS": json.dumps([PASSKEY_ORIGIN]),
            "TOKENVEND_PASSKEYS_APPLE_APP_IDS": json.dumps([PASSKEY_APP_ID]),
            "TOKENVEND_PASSKEYS_ANDROID_APPS": json.dumps(
                [{"package": "com.example.openapi", "sha256CertFingerprints": [PASSKEY_FINGERPRINT]}]),
        })
        log = open(os.path.join(directory, "server.log"), "w")
        server = subprocess.Popen([binary, "serve"],
                                  env=environment, stderr=log, stdout=log, cwd=directory)
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
                    break
                except OSError:
                    if server.poll() is not None:
                        break
                    time.sleep(0.05)
            else:
                findings.append("server did not start")
            if server.poll() is not None:
                print(open(os.path.join(directory, "server.log")).read(), file=sys.stderr)
                findings.append(f"server exited with {server.returncode}")
            else:
                scenario(Checker(spec, port), Outbox(os.path.join(directory, "outbox")))
        finally:
            server.terminate()
            server.wait(timeout=30)
            moss.shutdown()
            keys.shutdown()
    for path, operations in spec["paths"].items():
        for method in operations:
            if method in ("get", "post", "put", "patch", "delete") and (method, path) not in called:
                findings.append(f"{method.upper()} {path}: documented but not exercised")
    for finding in findings:
        print(f"check-openapi: {finding}", file=sys.stderr)
    print(f"check-openapi: {len(called)} operations checked, {len(findings)} findings", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
