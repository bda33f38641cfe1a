#!/usr/bin/env bash
# Cross-checks tokenvend's JWT implementation against PyJWT, in both directions, for HS256/HS384/HS512:
# tokens signed by `tokenvend jwt sign` must verify in PyJWT, PyJWT's tokens must verify with `tokenvend jwt verify`,
# and both must refuse each other's tampered or algorithm-swapped tokens; a stream token minted by a running
# `tokenvend serve` must verify in PyJWT; PyJWT-signed RS256 and ES256 ID tokens must sign in at POST /auth/idtoken
# (scripts/jose_interop_idtoken.py).
#
# Usage: scripts/jose-interop.sh            (builds the debug `tokenvend` unless TOKENVEND_BIN is set)
# Needs python3; installs PyJWT with pip when it is missing. Exits 0 when every check passes, 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import jwt' 2>/dev/null; then
    echo "installing PyJWT (pip install pyjwt)" >&2
    python3 -m pip install --quiet --disable-pip-version-check pyjwt >&2
fi
if ! python3 -c 'import joserfc, cryptography' 2>/dev/null; then
    echo "installing joserfc and PyJWT's crypto extra (pip install 'pyjwt[crypto]' joserfc)" >&2
    python3 -m pip install --quiet --disable-pip-version-check 'pyjwt[crypto]' joserfc >&2
fi
if [[ -z "${TOKENVEND_BIN:-}" ]]; then
    swift build --product tokenvend >/dev/null
    TOKENVEND_BIN="$(swift build --show-bin-path)/tokenvend"
fi
BIN="$TOKENVEND_BIN"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

failures=0
pass() { echo "ok   - $1"; }
fail() { echo "FAIL - $1" >&2; failures=$((failures + 1)); }

"$BIN" keys generate >"$WORK/secret"
SECRET="$(tr -d '\n' <"$WORK/secret")"
[[ ${#SECRET} -ge 64 ]] && pass "keys generate prints ${#SECRET} characters (>= 64)" || fail "generated secret too short"
export SECRET
NOW="$(date +%s)"
CLAIMS="{\"iss\":\"tokenvend\",\"sub\":\"u1\",\"iat\":$NOW,\"exp\":$((NOW + 600)),\"ids\":{\"registered\":\"ada@example.com\"},\"n\":null,\"u\":\"h\u00e9\\\\\\\"\"}"

pyjwt() { python3 - "$@"; }

for ALG in HS256 HS384 HS512; do
    # tokenvend -> PyJWT
    TOKEN="$("$BIN" jwt sign --secret-file "$WORK/secret" --kid k1 --alg "$ALG" --claims "$CLAIMS")"
    if pyjwt "$TOKEN" "$ALG" "$CLAIMS" <<'PY'
import json, os, sys, jwt
token, alg, claims = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
decoded = jwt.decode(token, os.environ["SECRET"].encode(), algorithms=[alg], options={"require": ["exp"]})
header = jwt.get_unverified_header(token)
assert decoded == claims, (decoded, claims)
assert header == {"alg": alg, "typ": "JWT", "kid": "k1"}, header
PY
    then pass "$ALG: tokenvend-signed token verifies in PyJWT with identical claims and header"
    else fail "$ALG: PyJWT rejected a tokenvend token"; fi

    # PyJWT -> tokenvend
    PYTOKEN="$(pyjwt "$ALG" "$CLAIMS" <<'PY'
import json, os, sys, jwt
print(jwt.encode(json.loads(sys.argv[2]), os.environ["SECRET"].encode(), algorithm=sys.argv[1], headers={"kid": "py1"}))
PY
)"
    if OUT="$("$BIN" jwt verify --secret-file "$WORK/secret" --alg "$ALG" --kid py1 "$PYTOKEN")" \
        && pyjwt "$OUT" "$CLAIMS" <<'PY'
import json, sys
assert json.loads(sys.argv[1]) == json.loads(sys.argv[2])
PY
    then pass "$ALG: PyJWT-signed token verifies in tokenvend with identical claims"
    else fail "$ALG: tokenvend rejected a PyJWT token"; fi

    # Tampering and algorithm swaps are refused on both sides.
    TAMPERED="${PYTOKEN%?}$( [[ "${PYTOKEN: -1}" == "A" ]] && echo B || echo A )"
    if "$BIN" jwt verify --secret-file "$WORK/secret" --alg "$ALG" "$TAMPERED" >/dev/null 2>&1; then
        fail "$ALG: tokenvend accepted a tampered PyJWT token"
    else pass "$ALG: tokenvend refuses a tampered PyJWT token (exit $?)"; fi
    OTHER=$([[ "$ALG" == HS512 ]] && echo HS256 || echo HS512)
    if "$BIN" jwt verify --secret-file "$WORK/secret" --alg "$OTHER" "$PYTOKEN" >/dev/null 2>&1; then
        fail "$ALG: tokenvend accepted a $ALG token as $OTHER"
    else pass "$ALG: tokenvend refuses the token when told to expect $OTHER"; fi
    if pyjwt "$TOKEN" "$OTHER" <<'PY'
import os, sys, jwt
try:
    jwt.decode(sys.argv[1], os.environ["SECRET"].encode(), algorithms=[sys.argv[2]])
except jwt.InvalidTokenError:
    sys.exit(0)
sys.exit(1)
PY
    then pass "$ALG: PyJWT refuses the tokenvend token when told to expect $OTHER"
    else fail "$ALG: PyJWT accepted a $ALG token as $OTHER"; fi
done

# PyJWT's unsecured token (alg none) and an expired token are refused by tokenvend.
NONE="$(pyjwt "$CLAIMS" <<'PY'
import json, sys, jwt
print(jwt.encode(json.loads(sys.argv[1]), None, algorithm="none"))
PY
)"
if "$BIN" jwt verify --secret-file "$WORK/secret" "$NONE" >/dev/null 2>&1; then fail "tokenvend accepted alg none"
else pass "tokenvend refuses PyJWT's alg=none token"; fi
EXPIRED="$(pyjwt "$NOW" <<'PY'
import os, sys, jwt
now = int(sys.argv[1])
print(jwt.encode({"sub": "u1", "exp": now - 10}, os.environ["SECRET"].encode(), algorithm="HS512"))
PY
)"
if "$BIN" jwt verify --secret-file "$WORK/secret" "$EXPIRED" >/dev/null 2>&1; then fail "tokenvend accepted an expired token"
else pass "tokenvend refuses PyJWT's expired token"; fi

# A stream token minted by a running `tokenvend serve` (register, log in, POST /stream-token) verifies in PyJWT
# with the configured secret, with exactly the header and claims docs/API.md promises; a wrong secret is refused.
if python3 - "$BIN" "$WORK" <<'PY'
import json, os, socket, subprocess, sys, time, urllib.request, jwt
binary, work = sys.argv[1], sys.argv[2]
secret = "jose-interop-stream-secret-jose-interop-stream-secret-0123456789"
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
environment.update({
    "TOKENVEND_SERVER_PORT": str(port), "TOKENVEND_DATABASE_PATH": os.path.join(work, "stream.sqlite"),
    "TOKENVEND_PASSWORD_TIME_COST": "1", "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
    "TOKENVEND_STREAM_KEYS": json.dumps([{"kid": "interop", "secret": secret}]),
})
log = open(os.path.join(work, "server.log"), "w")
server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1"], env=environment, stdout=log, stderr=log, cwd=work)

def call(method, path, body=None, bearer=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", f"Bearer {bearer}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")

try:
    for _ in range(400):
        try:
            call("GET", "/healthz")
            break
        except OSError:
            assert server.poll() is None, open(os.path.join(work, "server.log")).read()
            time.sleep(0.05)
    credentials = {"email": "interop@example.com", "password": "correct horse battery"}
    call("POST", "/auth/register", credentials)
    login = call("POST", "/auth/login", credentials)
    answer = call("POST", "/stream-token", bearer=login["accessToken"])
    token = answer["token"]
    claims = jwt.decode(token, secret.encode(), algorithms=["HS512"], options={"require": ["exp", "iat"]})
    assert jwt.get_unverified_header(token) == {"alg": "HS512", "typ": "JWT", "kid": "interop"}, token
    assert set(claims) == {"exp", "iat", "ids"}, claims
    assert claims["ids"] == {"registered": login["user"]["id"]}, claims
    assert claims["exp"] - claims["iat"] == answer["expiresIn"] == 900, (claims, answer)
    try:
        jwt.decode(token, b"not-the-stream-secret-not-the-stream-secret-not-the-stream-secret", algorithms=["HS512"])
        raise AssertionError("PyJWT accepted the stream token with the wrong secret")
    except jwt.InvalidSignatureError:
        pass
finally:
    server.terminate()
    server.wait(timeout=30)
PY
then pass "a stream token minted by tokenvend serve verifies in PyJWT (header, exp/iat/ids) and not with another secret"
else fail "PyJWT rejected (or could not fetch) a stream token minted by tokenvend serve"; fi

# ES256 and EdDSA access tokens from a running server, verified through /.well-known/jwks.json by PyJWT's
# PyJWKClient and joserfc's KeySet; PyJWT-signed tokens verified by `tokenvend jwt verify --jwks`.
if ! python3 scripts/jose_interop_keys.py "$BIN" "$WORK"; then
    fail "ES256/EdDSA access tokens and JWKS (see the FAIL lines above)"
fi

# ID tokens signed by PyJWT (RS256 and ES256) against a fake Apple key URL on loopback, at POST /auth/idtoken.
if ! python3 scripts/jose_interop_idtoken.py "$BIN" "$WORK"; then
    fail "PyJWT-signed ID tokens at POST /auth/idtoken (see the FAIL lines above)"
fi

if [[ $failures -gt 0 ]]; then
    echo "$failures interop check(s) failed" >&2
    exit 1
fi
echo "all JOSE interop checks passed"
