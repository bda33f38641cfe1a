#!/usr/bin/env bash
# POST /stream-token with a DPoP-bound access token against the same with a bearer token, side by side in one run
# (modelled on ../shared/bench/pair.sh): one tokenvend release server pinned to CPU 0, wrk (one thread) on CPU 1,
# keep-alive, the same connections and duration, rounds alternating bearer, bound, bearer, bound … Both tokens belong
# to the same user on the same server: a bearer request is one verified-token cache lookup, one session check and
# one stream-token signature; a bound request adds the DPoP proof: its parsing, one ES256 signature check, the
# checks of htm, htu, iat and ath, the thumbprint compared with the token's cnf.jkt, and the replay cache's insert.
# Target (issue 35): bound ≥ 0.6× bearer.
#
# Every bound request needs a proof of its own (a jti is accepted once), so proofs are made ahead by Python
# (cryptography: one ES256 key, a unique jti each, iat = now, htu http://127.0.0.1:<port>/stream-token, ath of the
# bound token) right before each bound round, one file per round, and wrk's Lua request() hands out the next one per
# request. The count is the previous bearer round's request count × 1.3 + 2000 (a bound round cannot outrun the
# bearer one by that much); wrk prints how many it used and how many requests found the file exhausted (those reuse
# the last proof and are refused). Rates count 2xx answers only: wrk's own Requests/sec also counts refusals, so each
# round prints the non-2xx count next to the rate. dpop.maxAgeSeconds is 300 (its maximum) so that proofs made
# before a round stay fresh through it.
#
# usage: scripts/pair-dpop.sh [ROUNDS=5] [CONNS=32] [SECS=10]
#   Builds `swift build -c release --product tokenvend` unless TOKENVEND_BIN names a release binary.
# Needs: wrk (apt-get install -y wrk), curl, python3 with cryptography, taskset. Run it on an idle machine: it warns
# when the one-minute load average is above 1.5.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}; conns=${2:-32}; secs=${3:-10}
command -v wrk >/dev/null || { echo "install wrk: apt-get install -y wrk" >&2; exit 2; }
python3 -c 'import cryptography' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check cryptography
# The binary as $tv, $work and $pids with their clean-up, no inherited TOKENVEND_* (scripts/bench-setup.sh).
source scripts/bench-setup.sh

# The proof maker: `key FILE` makes the ES256 key; `proof KEY METHOD URL [TOKEN]` prints one proof (ath of TOKEN
# when given); `batch KEY METHOD URL TOKEN COUNT OUT` writes COUNT proofs, one a line, made by two processes.
cat >"$work/dpop_proofs.py" <<'PY'
import base64, hashlib, json, multiprocessing, os, sys, time
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def load(path):
    with open(path, "rb") as file:
        return serialization.load_pem_private_key(file.read(), None)

def header(key):
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.x.to_bytes(32, "big")), "y": b64(numbers.y.to_bytes(32, "big"))}
    return b64(json.dumps({"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}, separators=(",", ":")).encode())

def proofs(path, method, url, token, jtis):
    key = load(path)
    head = header(key)
    ath = b64(hashlib.sha256(token.encode()).digest()) if token else None
    out = []
    for jti in jtis:
        claims = {"jti": jti, "htm": method, "htu": url, "iat": int(time.time())}
        if ath:
            claims["ath"] = ath
        signing_input = head + "." + b64(json.dumps(claims, separators=(",", ":")).encode())
        r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        out.append(signing_input + "." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
    return out

def part(arguments):
    return proofs(*arguments)

if __name__ == "__main__":
    command = sys.argv[1]
    if command == "key":
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        with open(os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as file:
            file.write(pem)
    elif command == "proof":
        path, method, url = sys.argv[2:5]
        print(proofs(path, method, url, sys.argv[5] if len(sys.argv) > 5 else None, [os.urandom(16).hex()])[0])
    elif command == "batch":
        path, method, url, token, count, out = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7]
        prefix = os.urandom(8).hex()
        jtis = [f"{prefix}-{i}" for i in range(count)]
        with multiprocessing.Pool(2) as pool:
            chunks = pool.map(part, [(path, method, url, token, jtis[i::2]) for i in range(2)])
        lines = [proof for chunk in chunks for proof in chunk]
        assert len(lines) == count and len(set(lines)) == count
        with open(out, "w") as file:
            file.write("\n".join(lines) + "\n")
    else:
        sys.exit(f"unknown command {command}")
PY
proofs() { python3 "$work/dpop_proofs.py" "$@"; }

port=18120; base="http://127.0.0.1:$port"
export TOKENVEND_STREAM_KEYS='[{"kid":"bench","secret":"bench-secret-bench-secret-bench-secret-bench-secret-bench-secret-0001"}]'
export TOKENVEND_PASSWORD_TIME_COST=1 TOKENVEND_PASSWORD_MEMORY_COST=8192
export TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE=1000000 TOKENVEND_ACCESS_TOKEN_TTL_SECONDS=3600
export TOKENVEND_SERVER_PUBLIC_URL="$base" TOKENVEND_DPOP_MAX_AGE_SECONDS=300 TOKENVEND_LOG_LEVEL=warning
taskset -c 0 "$tv" serve --host 127.0.0.1 --port "$port" --database "$work/tv.sqlite" >"$work/tv.log" 2>&1 &
server=$!; pids+=("$server")
for _ in $(seq 1 200); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
curl -fs "$base/healthz" >/dev/null || { echo "the server did not start:" >&2; tail -5 "$work/tv.log" >&2; exit 1; }

json='Content-Type: application/json'
credentials='{"email":"bench@example.com","password":"bench-password-1"}'
curl -fs -H "$json" -d "$credentials" "$base/auth/register" >/dev/null
bearer=$(curl -fs -H "$json" -H 'X-Auth-Strategy: bearer' -d "$credentials" "$base/auth/login")
proofs key "$work/dpop.pem"
bound=$(curl -fs -H "$json" -H 'X-Auth-Strategy: bearer' -H "DPoP: $(proofs proof "$work/dpop.pem" POST "$base/auth/login")" \
  -d "$credentials" "$base/auth/login") || { echo "login with a DPoP proof failed:" >&2; tail -5 "$work/tv.log" >&2; exit 1; }
field() { python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
[ "$(field "$bearer" tokenType)" = Bearer ] || { echo "the bearer login answered tokenType $(field "$bearer" tokenType)" >&2; exit 1; }
[ "$(field "$bound" tokenType)" = DPoP ] || { echo "the login with a proof answered tokenType $(field "$bound" tokenType), not DPoP" >&2; exit 1; }
bearer=$(field "$bearer" accessToken); bound=$(field "$bound" accessToken)

# Each side checked once: the bearer token as Bearer, the bound one as DPoP with a proof (and refused as Bearer).
curl -fs -X POST -H "Authorization: Bearer $bearer" "$base/stream-token" >/dev/null || { echo "POST /stream-token with the bearer token failed" >&2; exit 1; }
curl -fs -X POST -H "Authorization: DPoP $bound" -H "DPoP: $(proofs proof "$work/dpop.pem" POST "$base/stream-token" "$bound")" \
  "$base/stream-token" >/dev/null || { echo "POST /stream-token with the bound token and a proof failed" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $bound" "$base/stream-token")
[ "$status" = 401 ] || { echo "the bound token sent as Bearer answered $status, not 401" >&2; exit 1; }

# Both scripts hand out requests from request(), so wrk does the same Lua work per request on either side.
cat >"$work/bearer.lua" <<LUA
wrk.method = "POST"
local prepared
request = function()
  prepared = prepared or wrk.format(nil, nil, {["Authorization"] = "Bearer $bearer"})
  return prepared
end
LUA
cat >"$work/bound.lua" <<'LUA'
wrk.method = "POST"
-- One proof per request, each used once: the thread loads the round's file in init() (the main Lua state never
-- does), takes them in order, and reuses the last one when the file runs out (a refused request, counted).
local authorization = "DPoP " .. os.getenv("BENCH_BOUND_TOKEN")
local proofs = {}
used, available, exhausted = 0, 0, 0
init = function(args)
  for line in io.lines(os.getenv("BENCH_PROOFS")) do proofs[#proofs + 1] = line end
  available = #proofs
end
request = function()
  used = used + 1
  local proof = proofs[used]
  if proof == nil then
    exhausted = exhausted + 1
    proof = proofs[#proofs]
  end
  return wrk.format(nil, nil, {["Authorization"] = authorization, ["DPoP"] = proof})
end
local threads = {}
setup = function(thread) threads[#threads + 1] = thread end
done = function(summary, latency, requests)
  for _, thread in ipairs(threads) do
    io.write(string.format("proofs: %d used of %d, %d requests found none left\n",
      math.min(thread:get("used"), thread:get("available")), thread:get("available"), thread:get("exhausted")))
  end
end
LUA

# Runs wrk for $2 seconds with script $1 (and proofs file $3 for the bound script); appends its output to
# $work/wrk-$1.log and prints "<2xx per second> <requests> <non-2xx> <proofs exhausted>".
run() {
  local out
  out=$(BENCH_BOUND_TOKEN="$bound" BENCH_PROOFS="${3:-/dev/null}" taskset -c 1 wrk -t1 -c"$conns" -d"$2s" --latency \
    -s "$work/$1.lua" "$base/stream-token")
  printf '%s\n' "$out" >>"$work/wrk-$1.log"
  python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
requests, seconds = re.search(r"(\d+) requests in ([\d.]+)(m?s)", out).group(1, 2)
unit = re.search(r"\d+ requests in [\d.]+(m?s)", out).group(1)
seconds = float(seconds) / (1000 if unit == "ms" else 1)
non2xx = int((re.search(r"Non-2xx or 3xx responses: (\d+)", out) or [0, 0])[1])
errors = re.search(r"Socket errors: (.*)", out)
exhausted = re.search(r"(\d+) requests found none left", out)
print(f"{(int(requests) - non2xx) / seconds:.1f} {requests} {non2xx} {exhausted.group(1) if exhausted else 0}")
if errors:
    print(f"socket errors: {errors.group(1)}", file=sys.stderr)
PY
}
# Proofs for a bound run that follows a bearer run of $1 requests (× 1.3 + 2000), into file $2.
make_proofs() { proofs batch "$work/dpop.pem" POST "$base/stream-token" "$bound" $(( $1 * 13 / 10 + 2000 )) "$2"; }

echo "== POST /stream-token, bearer vs DPoP-bound: $rounds round(s), $conns connections, ${secs}s each, server on CPU 0, wrk on CPU 1"
read -r _ warm _ _ < <(run bearer 2)
make_proofs "$warm" "$work/proofs-warm"
run bound 2 "$work/proofs-warm" >/dev/null
rm -f "$work/proofs-warm"
ra=(); rb=(); refused=0
for r in $(seq 1 "$rounds"); do
  read -r x n xbad _ < <(run bearer "$secs")
  make_proofs "$n" "$work/proofs-$r"
  read -r y _ ybad gone < <(run bound "$secs" "$work/proofs-$r")
  rm -f "$work/proofs-$r"
  ra+=("$x"); rb+=("$y"); refused=$((refused + xbad + ybad))
  echo "round $r: bearer $x 2xx/s (non-2xx $xbad), bound $y 2xx/s (non-2xx $ybad, proofs exhausted $gone)"
done
grep -h '^proofs:' "$work/wrk-bound.log" | tail -n "$rounds" | sed 's/^/  bound round /'
for side in bearer bound; do
  echo "$side latency (last round): $(grep -E '^ +(50|99)%' "$work/wrk-$side.log" | tail -2 | tr -s ' ' | paste -sd,)"
done
metrics=$(curl -fs "$base/metrics")
echo "tokenvend_dpop_proofs_total (series above 0): $(printf '%s\n' "$metrics" | awk '/^tokenvend_dpop_proofs_total\{/ && $2 != 0 {printf "%s %s; ", $1, $2}')"
echo "tokenvend peak RSS $(grep VmHWM /proc/$server/status | awk '{print $2, $3}')"
[ "$refused" -eq 0 ] || echo "warning: $refused responses were not 2xx; the rates above count 2xx only"
report_ratio bearer bound bound/bearer 2xx/s 0.6 "${ra[*]}" "${rb[*]}"
