"""ES256/EdDSA access tokens and JWKS checked by code nobody here wrote (run by scripts/jose-interop.sh).

For ES256 and EdDSA: `tokenvend keys generate` makes the key, `tokenvend serve` runs with it, a user logs in,
PyJWT's PyJWKClient and joserfc's KeySet fetch /.well-known/jwks.json over loopback and verify the access token
(header {"alg","typ":"at+jwt","kid"}), and both refuse it after a one-byte tamper. Then PyJWT signs tokens with
private JWKs of a set it made, and `tokenvend jwt verify --jwks` accepts them against the public set (file and
URL) and refuses a tampered one. Last, a rotation seen by a caching PyJWKClient: a standby key is published
before it signs, so after promotion the client verifies the new key's token from its cached set without a refetch;
once the old key is revoked, a refetched set no longer holds it and the old key's token fails (at tokenvend too).

usage: python3 scripts/jose_interop_keys.py TOKENVEND_BINARY WORK_FOLDER   (prints ok/FAIL lines, exit 1 on a failure)
"""
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
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from joserfc import jwt as jose_jwt
from joserfc.jwk import KeySet

binary, work = sys.argv[1], sys.argv[2]
failures = 0


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


def call(port, method, path, body=None, bearer=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", f"Bearer {bearer}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def start_server(port, database, keys, log_name):
    """Starts `tokenvend serve` on `port` with `keys` (TOKENVEND_ACCESS_TOKEN_KEYS) and waits until it answers."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
    environment.update({
        "TOKENVEND_SERVER_PORT": str(port), "TOKENVEND_DATABASE_PATH": database,
        "TOKENVEND_PASSWORD_TIME_COST": "1", "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
        "TOKENVEND_ACCESS_TOKEN_KEYS": json.dumps(keys),
    })
    log_path = os.path.join(work, log_name)
    log = open(log_path, "w")
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1"], env=environment, stdout=log, stderr=log,
                              cwd=work)
    for _ in range(400):
        try:
            call(port, "GET", "/healthz")
            return server
        except OSError:
            assert server.poll() is None, open(log_path).read()
            time.sleep(0.05)
    raise AssertionError(f"server on {port} did not start")


def stop_server(server):
    server.terminate()
    server.wait(timeout=30)


class CountingJWKClient(jwt.PyJWKClient):
    """PyJWKClient with its JWK Set cache on, counting the times it fetches the set."""

    def __init__(self, url):
        super().__init__(url, cache_keys=False, cache_jwk_set=True, lifespan=3600)
        self.fetches = 0

    def fetch_data(self):
        self.fetches += 1
        return super().fetch_data()


def rotation_with_caching_client():
    """standby → current → previous → revoked, watched by a PyJWKClient that caches the set."""
    old_kid, new_kid = "rot-old", "rot-new"
    files = {}
    for kid, alg in ((old_kid, "ES256"), (new_kid, "EdDSA")):
        files[kid] = os.path.join(work, f"{kid}.pem")
        subprocess.run([binary, "keys", "generate", "--alg", alg, "--kid", kid, "--out", files[kid]],
                       check=True, capture_output=True)

    def keys(old_state, new_state):
        return [{"kid": old_kid, "alg": "ES256", "privateKeyFile": files[old_kid], "state": old_state},
                {"kid": new_kid, "alg": "EdDSA", "privateKeyFile": files[new_kid], "state": new_state}]

    port, database = free_port(), os.path.join(work, "rotation.sqlite")
    url = f"http://127.0.0.1:{port}/.well-known/jwks.json"
    credentials = {"email": "rotation@example.com", "password": "correct horse battery"}
    client = CountingJWKClient(url)

    def verify(token, alg):
        key = client.get_signing_key_from_jwt(token)
        return jwt.decode(token, key.key, algorithms=[alg], audience="tokenvend", issuer="tokenvend")

    # 1. The new key is standby: published, not signing. The client fetches the set once for the old key's token.
    server = start_server(port, database, keys("current", "standby"), "rotation-1.log")
    try:
        call(port, "POST", "/auth/register", credentials)
        first_login = call(port, "POST", "/auth/login", credentials)
        old_token, user_id = first_login["accessToken"], first_login["user"]["id"]
        report(jwt.get_unverified_header(old_token)["kid"] == old_kid, "rotation: the current key signs")
        verify(old_token, "ES256")
        cached = [key.key_id for key in client.get_jwk_set().keys]
        report(client.fetches == 1 and cached == [old_kid, new_kid],
               "rotation: PyJWKClient caches a set holding the standby key before it signs")
    finally:
        stop_server(server)

    # 2. Promoted: the new key signs, the old one is previous. The cached set already holds the new key.
    server = start_server(port, database, keys("previous", "current"), "rotation-2.log")
    try:
        new_token = call(port, "POST", "/auth/login", credentials)["accessToken"]
        report(jwt.get_unverified_header(new_token)["kid"] == new_kid, "rotation: after promotion the new key signs")
        verify(new_token, "EdDSA")
        verify(old_token, "ES256")
        report(client.fetches == 1,
               "rotation: the caching PyJWKClient verifies the new key's token (and the old one's) without a refetch")
        report(call(port, "GET", "/auth/me", bearer=old_token)["sub"] == user_id,
               "rotation: tokenvend still accepts the previous key's token")
    finally:
        stop_server(server)

    # 3. Revoked: the old key leaves the set. After a refetch the client verifies the new token only.
    server = start_server(port, database, keys("revoked", "current"), "rotation-3.log")
    try:
        client.get_jwk_set(refresh=True)
        verify(new_token, "EdDSA")
        try:
            verify(old_token, "ES256")
            report(False, "rotation: PyJWKClient accepted the revoked key's token after refetching the set")
        except jwt.PyJWKClientError:
            report(client.fetches >= 2, "rotation: after refetching, PyJWKClient refuses the revoked key's token")
        try:
            call(port, "GET", "/auth/me", bearer=old_token)
            report(False, "rotation: tokenvend accepted the revoked key's token")
        except urllib.error.HTTPError as error:
            report(error.code == 401, "rotation: tokenvend answers 401 to the revoked key's token")
        report(call(port, "GET", "/auth/me", bearer=new_token)["sub"] == user_id,
               "rotation: tokenvend accepts the new key's token")
    finally:
        stop_server(server)


def serve_with(alg):
    kid = f"interop-{alg.lower()}"
    key_file = os.path.join(work, f"{kid}.pem")
    public = subprocess.run([binary, "keys", "generate", "--alg", alg, "--kid", kid, "--out", key_file],
                            check=True, capture_output=True, text=True).stdout
    report(oct(os.stat(key_file).st_mode & 0o777) == "0o600", f"{alg}: keys generate --out writes the key with mode 0600")
    report(json.loads(public).get("kid") == kid and "d" not in json.loads(public),
           f"{alg}: keys generate prints the public JWK only")
    port = free_port()
    environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
    environment.update({
        "TOKENVEND_SERVER_PORT": str(port), "TOKENVEND_DATABASE_PATH": os.path.join(work, f"{kid}.sqlite"),
        "TOKENVEND_PASSWORD_TIME_COST": "1", "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
        "TOKENVEND_ACCESS_TOKEN_KEYS": json.dumps(
            [{"kid": kid, "alg": alg, "privateKeyFile": key_file, "state": "current"}]),
    })
    log = open(os.path.join(work, f"{kid}.log"), "w")
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1"], env=environment, stdout=log, stderr=log,
                              cwd=work)
    try:
        for _ in range(400):
            try:
                call(port, "GET", "/healthz")
                break
            except OSError:
                assert server.poll() is None, open(os.path.join(work, f"{kid}.log")).read()
                time.sleep(0.05)
        credentials = {"email": f"{kid}@example.com", "password": "correct horse battery"}
        call(port, "POST", "/auth/register", credentials)
        login = call(port, "POST", "/auth/login", credentials)
        token = login["accessToken"]
        url = f"http://127.0.0.1:{port}/.well-known/jwks.json"
        report(jwt.get_unverified_header(token) == {"alg": alg, "typ": "at+jwt", "kid": kid},
               f"{alg}: the access token header is {{alg, typ: at+jwt, kid}}")

        signing_key = jwt.PyJWKClient(url, cache_keys=False).get_signing_key_from_jwt(token)
        claims = jwt.decode(token, signing_key.key, algorithms=[alg], audience="tokenvend", issuer="tokenvend",
                            options={"require": ["exp", "iat", "sub", "sid"]})
        # A self-registered email is unverified: the token asserts neither `email` nor `email_verified` (issue 30).
        report(claims["sub"] == login["user"]["id"] and "email" not in claims and "email_verified" not in claims,
               f"{alg}: PyJWKClient verifies the access token from the JWKS")
        try:
            jwt.decode(tamper(token), signing_key.key, algorithms=[alg], audience="tokenvend")
            report(False, f"{alg}: PyJWT accepted a tampered token")
        except jwt.InvalidTokenError:
            report(True, f"{alg}: PyJWT refuses the token tampered in one byte")

        with urllib.request.urlopen(url, timeout=10) as response:
            key_set = KeySet.import_key_set(json.loads(response.read()))
        decoded = jose_jwt.decode(token, key_set, algorithms=[alg])
        jose_jwt.JWTClaimsRegistry(iss={"essential": True, "value": "tokenvend"},
                                   aud={"essential": True, "value": "tokenvend"}).validate(decoded.claims)
        report(decoded.claims["sub"] == claims["sub"], f"{alg}: joserfc's KeySet verifies the access token")
        try:
            jose_jwt.decode(tamper(token), key_set, algorithms=[alg])
            report(False, f"{alg}: joserfc accepted a tampered token")
        except Exception:  # joserfc raises BadSignatureError (a JoseError)
            report(True, f"{alg}: joserfc refuses the token tampered in one byte")
    finally:
        server.terminate()
        server.wait(timeout=30)


def pyjwt_signs_for_tokenvend():
    """PyJWT signs with private JWKs of a set; tokenvend verifies against the public set (file and URL)."""
    private_keys = {"py-es256": ("ES256", ec.generate_private_key(ec.SECP256R1())),
                    "py-eddsa": ("EdDSA", ed25519.Ed25519PrivateKey.generate())}
    private_set, public_set = [], []
    for kid, (alg, key) in private_keys.items():
        algorithm = jwt.get_algorithm_by_name(alg)
        private = json.loads(algorithm.to_jwk(key))
        private.update({"kid": kid, "alg": alg, "use": "sig"})
        private_set.append(private)
        public = json.loads(algorithm.to_jwk(key.public_key()))
        public.update({"kid": kid, "alg": alg, "use": "sig"})
        public_set.append(public)
    set_file = os.path.join(work, "py-set.json")
    with open(set_file, "w") as handle:
        json.dump({"keys": public_set}, handle)

    class SetHandler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"keys": public_set}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    served = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SetHandler)
    threading.Thread(target=served.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{served.server_address[1]}/jwks.json"
    now = int(time.time())
    try:
        for private in private_set:
            key = jwt.PyJWK(private)
            token = jwt.encode({"sub": "u1", "iat": now, "exp": now + 600}, key, algorithm=private["alg"],
                               headers={"kid": private["kid"]})
            for source in (set_file, url):
                result = subprocess.run([binary, "jwt", "verify", "--jwks", source, token],
                                        capture_output=True, text=True)
                report(result.returncode == 0 and json.loads(result.stdout)["sub"] == "u1",
                       f"{private['alg']}: a PyJWT token verifies in tokenvend jwt verify --jwks {'URL' if source == url else 'FILE'}")
            refused = subprocess.run([binary, "jwt", "verify", "--jwks", set_file, tamper(token)],
                                     capture_output=True, text=True)
            report(refused.returncode == 1, f"{private['alg']}: tokenvend jwt verify --jwks refuses the tampered token")
            other_kid = [p["kid"] for p in private_set if p["kid"] != private["kid"]][0]
            swapped = jwt.encode({"sub": "u1", "exp": now + 600}, key, algorithm=private["alg"],
                                 headers={"kid": other_kid})
            refused = subprocess.run([binary, "jwt", "verify", "--jwks", set_file, swapped],
                                     capture_output=True, text=True)
            report(refused.returncode == 1,
                   f"{private['alg']}: a token naming another key's kid is refused (the kid fixes key and alg)")
    finally:
        served.shutdown()


for alg in ("ES256", "EdDSA"):
    try:
        serve_with(alg)
    except Exception as error:  # a failed call or an assertion: report it and go on
        report(False, f"{alg}: {type(error).__name__}: {error}")
try:
    pyjwt_signs_for_tokenvend()
except Exception as error:
    report(False, f"PyJWT-signed tokens: {type(error).__name__}: {error}")
try:
    rotation_with_caching_client()
except Exception as error:
    report(False, f"rotation with a caching PyJWKClient: {type(error).__name__}: {error}")
sys.exit(1 if failures else 0)
