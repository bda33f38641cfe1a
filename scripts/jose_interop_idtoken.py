"""ID tokens signed by code nobody here wrote, accepted at POST /auth/idtoken (run by scripts/jose-interop.sh).

A fake identity provider on loopback (Python's http.server) publishes a JWK Set that PyJWT wrote from an RSA 2048
and a P-256 key made here (`cryptography`); `tokenvend serve` runs with the `apple` preset, its issuer still
`https://appleid.apple.com`, its jwksURL pointed at the fake. PyJWT signs an RS256 and an ES256 ID token (Apple's
claims: `aud` the bundle id, the SHA-256 of a raw nonce from `POST /auth/nonce`, `email_verified` as the string
"true"): tokenvend
accepts each once (200, `created` true, the verified email on the new user) and refuses a replay; a token with one
byte of its signature changed, one signed by a key the provider does not publish, and one for another audience get
401 `invalid_grant`.

usage: python3 scripts/jose_interop_idtoken.py TOKENVEND_BINARY WORK_FOLDER   (ok/FAIL lines, exit 1 on a failure)
"""
import hashlib
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa

binary, work = sys.argv[1], sys.argv[2]
failures = 0
ISSUER = "https://appleid.apple.com"
BUNDLE_ID = "com.example.interop"


def report(ok, text):
    global failures
    print(("ok   - " if ok else "FAIL - ") + text, file=sys.stdout if ok else sys.stderr)
    if not ok:
        failures += 1


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tamper(token):
    """The token with one byte of its signature changed."""
    index = len(token) - 5
    return token[:index] + ("A" if token[index] != "A" else "B") + token[index + 1:]


def server_nonce(port):
    """POST /auth/nonce: a raw nonce the server issued (the app gives Apple its SHA-256)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/auth/nonce", method="POST", data=b"")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["nonce"]


def sign_in(port, body):
    """POST /auth/idtoken; returns (status, JSON body)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/auth/idtoken", method="POST",
                                     data=json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
ec_key = ec.generate_private_key(ec.SECP256R1())
stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def public_jwk(algorithm, key, kid, alg):
    jwk = json.loads(algorithm.to_jwk(key.public_key()))
    jwk.update({"kid": kid, "use": "sig", "alg": alg})
    return jwk


jwks = json.dumps({"keys": [
    public_jwk(jwt.algorithms.RSAAlgorithm, rsa_key, "rsa-1", "RS256"),
    public_jwk(jwt.algorithms.ECAlgorithm, ec_key, "ec-1", "ES256"),
]}).encode()


class Keys(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "public, max-age=3600")
        self.send_header("Content-Length", str(len(jwks)))
        self.end_headers()
        self.wfile.write(jwks)

    def log_message(self, *args):
        pass


provider = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Keys)
threading.Thread(target=provider.serve_forever, daemon=True).start()
port = free_port()
environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
environment.update({
    "TOKENVEND_SERVER_PORT": str(port), "TOKENVEND_DATABASE_PATH": os.path.join(work, "idtoken.sqlite"),
    "TOKENVEND_PASSWORD_TIME_COST": "1", "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
    "TOKENVEND_IDENTITY_PROVIDERS": json.dumps({"apple": {
        "preset": "apple", "audiences": [BUNDLE_ID], "algorithms": ["RS256", "ES256"],
        "jwksURL": f"http://127.0.0.1:{provider.server_address[1]}/auth/keys"}}),
})
log_path = os.path.join(work, "idtoken-serve.log")
log = open(log_path, "w")
server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1"], env=environment, stdout=log, stderr=log, cwd=work)
try:
    for _ in range(400):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            break
        except OSError:
            assert server.poll() is None, open(log_path).read()
            time.sleep(0.05)

    def token(key, alg, kid, subject, raw_nonce, audience=BUNDLE_ID):
        now = int(time.time())
        claims = {
            "iss": ISSUER, "aud": audience, "sub": subject, "iat": now, "exp": now + 600,
            "nonce": hashlib.sha256(raw_nonce.encode()).hexdigest(), "nonce_supported": True,
            "email": f"{subject}@privaterelay.appleid.com", "email_verified": "true", "auth_time": now,
        }
        return jwt.encode(claims, key, algorithm=alg, headers={"kid": kid})

    for alg, key, kid in [("RS256", rsa_key, "rsa-1"), ("ES256", ec_key, "ec-1")]:
        subject = f"001234.{alg.lower()}.interop"
        first = server_nonce(port)
        id_token = token(key, alg, kid, subject, first)
        status, body = sign_in(port, {"provider": "apple", "idToken": id_token, "nonce": first})
        report(status == 200 and body.get("created") is True and body.get("tokenType") == "Bearer"
               and body.get("user", {}).get("email") == f"{subject}@privaterelay.appleid.com",
               f"{alg}: a PyJWT-signed Apple ID token signs in a new user with its verified email ({status})")
        status, body = sign_in(port, {"provider": "apple", "idToken": id_token, "nonce": first})
        report(status == 401 and body.get("error") == "invalid_grant",
               f"{alg}: the same ID token again is refused with 401 invalid_grant ({status})")
        second = server_nonce(port)
        again = token(key, alg, kid, subject, second)
        status, body = sign_in(port, {"provider": "apple", "idToken": again, "nonce": second})
        report(status == 200 and body.get("created") is False,
               f"{alg}: a new token for the same subject signs in the same user, created false ({status})")
        third = server_nonce(port)
        tampered = tamper(token(key, alg, kid, subject + ".t", third))
        status, body = sign_in(port, {"provider": "apple", "idToken": tampered, "nonce": third})
        report(status == 401 and body.get("error") == "invalid_grant",
               f"{alg}: a tampered PyJWT token is refused with 401 invalid_grant ({status})")
    fourth = server_nonce(port)
    forged = token(stranger, "RS256", "rsa-1", "001234.forged", fourth)
    status, _ = sign_in(port, {"provider": "apple", "idToken": forged, "nonce": fourth})
    report(status == 401, f"a token signed by a key the provider does not publish is refused ({status})")
    fifth = server_nonce(port)
    other = token(rsa_key, "RS256", "rsa-1", "001234.aud", fifth, audience="com.example.other")
    status, _ = sign_in(port, {"provider": "apple", "idToken": other, "nonce": fifth})
    report(status == 401, f"a token for another audience is refused ({status})")
    chosen = token(rsa_key, "RS256", "rsa-1", "001234.chosen", "app-chosen")
    status, _ = sign_in(port, {"provider": "apple", "idToken": chosen, "nonce": "app-chosen"})
    report(status == 401, f"a token whose nonce the server never issued is refused ({status})")
finally:
    server.terminate()
    server.wait(timeout=30)
    provider.shutdown()
sys.exit(1 if failures else 0)
