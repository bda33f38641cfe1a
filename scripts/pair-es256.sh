#!/usr/bin/env bash
# POST /stream-token with asymmetric access tokens against the same with HS512 access tokens, side by side in one
# run (modelled on ../shared/bench/pair.sh): two or three tokenvend release servers, the same binary, one with an
# HS512 access-token key and one with ES256 (and/or EdDSA), the same wrk load alternated in rounds A B [C] A B [C]…,
# servers pinned to CPU 0 and wrk to CPU 1, keep-alive. Each request verifies the access token, checks its session
# and signs a stream JWT. Target: ES256 and EdDSA ≥ 0.8× HS512.
#
# usage: scripts/pair-es256.sh [--mode same-token|rotate|uncached] [--tokens N]
#                              TOKENVEND_BINARY [ALGS=ES256,EdDSA] [ROUNDS=5] [CONNS=32] [SECS=10]
#   TOKENVEND_BINARY: a release build (swift build -c release --product tokenvend).
#   ALGS: ES256, EdDSA or ES256,EdDSA.
#   --mode: which access tokens the load presents (each server gets its own, signed by its own key):
#     same-token (default; the behaviour before modes existed): one token for the whole run. After its first
#       request every request is a hit of the verified-token cache, so this measures the cache, not the
#       signature algorithm.
#     rotate: N distinct tokens (default 200), one per login session; wrk's Lua script cycles through them, so
#       each token's signature is verified once (a cache miss) and its later requests are cache hits, as with
#       many clients that each reuse their token until it expires.
#     uncached: N tokens (default 32768, four times the cache's 8192 entries) cycled the same way (each wrk run
#       starting at a random token), so a token comes back only after the cache has evicted it (it evicts
#       arbitrary entries when full): nearly every request verifies its signature; the hit count shows the rest. The cache cannot be disabled (there is no setting for it), so this is the
#       worst case: the signature cost on every request. Tokens come from min(N, 200) login sessions, the rest
#       from /auth/refresh on those sessions (a refresh issues a fresh access token without a password hash).
#   --tokens N: the number of distinct tokens for rotate or uncached.
#   The script prints the verified-token cache hits and misses of each server at the end, so the mode's effect
#   is visible. Rate limits and session caps are raised through the environment for the setup.
# Needs: wrk (apt-get install -y wrk), curl, python3, taskset. Prints each round and the median ratio per algorithm.
set -euo pipefail
mode=same-token; tokens=
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) mode=$2; shift 2 ;;
    --tokens) tokens=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
case "$mode" in
  same-token) tokens=1 ;;
  rotate) tokens=${tokens:-200} ;;
  uncached) tokens=${tokens:-32768} ;;
  *) echo "--mode must be same-token, rotate or uncached" >&2; exit 2 ;;
esac
[ "$tokens" -ge 1 ] 2>/dev/null || { echo "--tokens must be a positive integer" >&2; exit 2; }
[ $# -ge 1 ] || { echo "usage: $0 [--mode same-token|rotate|uncached] [--tokens N] TOKENVEND_BINARY [ALGS] [ROUNDS] [CONNS] [SECS]" >&2; exit 2; }
tv=$(readlink -f "$1"); algs=${2:-ES256,EdDSA}; rounds=${3:-5}; conns=${4:-32}; secs=${5:-10}
echo "mode $mode: $tokens distinct access token(s) per server"
command -v wrk >/dev/null || { echo "install wrk: apt-get install -y wrk" >&2; exit 2; }
work=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
wait_up() { for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0; sleep 0.05; done; echo "server on $1 did not start" >&2; exit 1; }

export TOKENVEND_STREAM_KEYS='[{"kid":"bench","secret":"bench-secret-bench-secret-bench-secret-bench-secret-bench-secret-0001"}]'
export TOKENVEND_PASSWORD_TIME_COST=1 TOKENVEND_PASSWORD_MEMORY_COST=8192 TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE=1000000
# Room for the rotate/uncached sessions, and tokens that outlive a long run (the setup of uncached takes a while).
export TOKENVEND_SESSION_MAX_PER_USER=10000 TOKENVEND_ACCESS_TOKEN_TTL_SECONDS=7200

# Writes $3 distinct access tokens of the server on port $2 to file $4, one a line: min(N, 200) login sessions, the
# rest by refreshing those sessions (16 connections in parallel). $1 is unused (the server's name, for messages).
fetch_tokens() {
  python3 - "$@" <<'PY'
import concurrent.futures, http.client, json, sys
name, port, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
credentials = json.dumps({"email": "bench@example.com", "password": "bench-password-1"})
headers = {"Content-Type": "application/json", "X-Auth-Strategy": "bearer"}
def post(connection, path, body):
    connection.request("POST", path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    if response.status != 200:
        sys.exit(f"{name}: POST {path} answered {response.status}: {data[:200]!r}")
    return json.loads(data)
sessions = min(count, 200)
def worker(slot, workers=16):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    mine = [post(connection, "/auth/login", credentials) for _ in range(slot, sessions, workers)]
    tokens = [answer["accessToken"] for answer in mine]
    refresh = [answer["refreshToken"] for answer in mine]
    wanted = len(range(slot, count, workers))
    index = 0
    while len(tokens) < wanted:
        answer = post(connection, "/auth/refresh", json.dumps({"refreshToken": refresh[index]}))
        refresh[index] = answer["refreshToken"]
        tokens.append(answer["accessToken"])
        index = (index + 1) % len(refresh)
    return tokens
with concurrent.futures.ThreadPoolExecutor(16) as pool:
    tokens = [token for part in pool.map(worker, range(16)) for token in part]
assert len(tokens) == count and len(set(tokens)) == count, (len(tokens), len(set(tokens)))
with open(out, "w") as file:
    file.write("\n".join(tokens) + "\n")
PY
}

names=(HS512); ports=(18090)
IFS=, read -r -a extra <<<"$algs"
port=18091
for alg in "${extra[@]}"; do names+=("$alg"); ports+=("$port"); port=$((port + 1)); done

for i in "${!names[@]}"; do
  name=${names[$i]}; p=${ports[$i]}
  if [ "$name" = HS512 ]; then
    keys='[{"kid":"bench-hs","secret":"access-secret-access-secret-access-secret-access-secret-access-0001"}]'
  else
    "$tv" keys generate --alg "$name" --kid "bench-$name" --out "$work/$name.pem" >/dev/null
    keys="[{\"kid\":\"bench-$name\",\"alg\":\"$name\",\"privateKeyFile\":\"$work/$name.pem\",\"state\":\"current\"}]"
  fi
  TOKENVEND_ACCESS_TOKEN_KEYS="$keys" taskset -c 0 "$tv" serve --host 127.0.0.1 --port "$p" \
    --database "$work/$name.sqlite" >"$work/$name.log" 2>&1 & pids+=($!)
  wait_up "$p"
  curl -fs -H 'Content-Type: application/json' -d '{"email":"bench@example.com","password":"bench-password-1"}' "http://127.0.0.1:$p/auth/register" >/dev/null
  fetch_tokens "$name" "$p" "$tokens" "$work/$name.tokens"
  at=$(head -n 1 "$work/$name.tokens")
  alg=$(python3 -c 'import base64,json,sys; h=sys.argv[1].split(".")[0]; print(json.loads(base64.urlsafe_b64decode(h + "=" * (-len(h) % 4)))["alg"])' "$at")
  [ "$alg" = "$name" ] || { echo "server $name signs with $alg" >&2; exit 1; }
  if [ "$mode" = same-token ]; then
    printf 'wrk.method="POST"\nwrk.headers["Authorization"]="Bearer %s"\n' "$at" > "$work/$name.lua"
  else
    # Cycle through the tokens, one per request. Each wrk run is a new Lua state, so it starts at a random
    # token: a run that started at the first token again would meet the tokens the previous run left cached.
    cat > "$work/$name.lua" <<LUA
wrk.method = "POST"
local tokens = {}
for line in io.lines("$work/$name.tokens") do tokens[#tokens + 1] = "Bearer " .. line end
math.randomseed(os.time() + math.floor(os.clock() * 1000000))
local index = math.random(0, #tokens - 1)
request = function()
  index = index % #tokens + 1
  wrk.headers["Authorization"] = tokens[index]
  return wrk.format()
end
LUA
  fi
done

rate() { taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$work/$1.lua" "http://127.0.0.1:$2/stream-token" | tee -a "$work/wrk.log" | awk '/Requests\/sec/ {print $2}'; }
for i in "${!names[@]}"; do taskset -c 1 wrk -t1 -c"$conns" -d2s -s "$work/${names[$i]}.lua" "http://127.0.0.1:${ports[$i]}/stream-token" >/dev/null; done
declare -A results
for r in $(seq 1 "$rounds"); do
  line="round $r:"
  for i in "${!names[@]}"; do
    x=$(rate "${names[$i]}" "${ports[$i]}"); results[${names[$i]}]+="$x "; line+=" ${names[$i]} $x req/s,"
  done
  echo "${line%,}"
done
grep -q 'Non-2xx' "$work/wrk.log" && { echo "some responses were not 2xx:"; grep 'Non-2xx' "$work/wrk.log"; }
for i in "${!names[@]}"; do
  hits=$(curl -fs "http://127.0.0.1:${ports[$i]}/metrics" | awk '/^tokenvend_access_token_cache_hits_total /{print $2}')
  misses=$(curl -fs "http://127.0.0.1:${ports[$i]}/metrics" | awk '/^tokenvend_access_token_cache_misses_total /{print $2}')
  echo "${names[$i]}: verified-token cache hits ${hits:-?}, misses ${misses:-?}"
done
args=()
for name in "${names[@]}"; do args+=("$name=${results[$name]}"); done
python3 - "${args[@]}" <<'PY'
import statistics, sys
series = {item.split("=", 1)[0]: [float(x) for x in item.split("=", 1)[1].split()] for item in sys.argv[1:]}
base = series.pop("HS512")
print(f"median HS512 {statistics.median(base):.0f} req/s")
for name, values in series.items():
    ratios = [y / x for x, y in zip(base, values)]
    verdict = "meets" if statistics.median(ratios) >= 0.8 else "MISSES"
    print(f"median {name} {statistics.median(values):.0f} req/s, ratio {name}/HS512 {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}) — {verdict} the 0.8 target")
PY
