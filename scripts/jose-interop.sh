#!/usr/bin/env bash
# Cross-checks tokenvend's JWT implementation against PyJWT, in both directions, for HS256/HS384/HS512:
# tokens signed by `tokenvend jwt sign` must verify in PyJWT, PyJWT's tokens must verify with `tokenvend jwt verify`,
# and both must refuse each other's tampered or algorithm-swapped tokens.
#
# Usage: scripts/jose-interop.sh            (builds the debug `tokenvend` unless TOKENVEND_BIN is set)
# Needs python3; installs PyJWT with pip when it is missing. Exits 0 when every check passes, 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python3 -c 'import jwt' 2>/dev/null; then
    echo "installing PyJWT (pip install pyjwt)" >&2
    python3 -m pip install --quiet --disable-pip-version-check pyjwt >&2
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

if [[ $failures -gt 0 ]]; then
    echo "$failures interop check(s) failed" >&2
    exit 1
fi
echo "all JOSE interop checks passed"
