#!/usr/bin/env bash
# POST /stream-token with asymmetric access tokens against the same with HS512 access tokens, side by side in one
# run (modelled on ../shared/bench/pair.sh): two or three tokenvend release servers, the same binary, one with an
# HS512 access-token key and one with ES256 (and/or EdDSA), the same wrk load alternated in rounds A B [C] A B [C]…,
# servers pinned to CPU 0 and wrk to CPU 1, keep-alive. Each request verifies the access token (the verified-token
# cache answers repeats), checks its session and signs a stream JWT. Target: ES256 and EdDSA ≥ 0.8× HS512.
#
# usage: scripts/pair-es256.sh TOKENVEND_BINARY [ALGS=ES256,EdDSA] [ROUNDS=5] [CONNS=32] [SECS=10]
#   TOKENVEND_BINARY: a release build (swift build -c release --product tokenvend).
#   ALGS: ES256, EdDSA or ES256,EdDSA.
# Needs: wrk (apt-get install -y wrk), curl, python3, taskset. Prints each round and the median ratio per algorithm.
set -euo pipefail
tv=$(readlink -f "$1"); algs=${2:-ES256,EdDSA}; rounds=${3:-5}; conns=${4:-32}; secs=${5:-10}
command -v wrk >/dev/null || { echo "install wrk: apt-get install -y wrk" >&2; exit 2; }
work=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
wait_up() { for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0; sleep 0.05; done; echo "server on $1 did not start" >&2; exit 1; }

export TOKENVEND_STREAM_KEYS='[{"kid":"bench","secret":"bench-secret-bench-secret-bench-secret-bench-secret-bench-secret-0001"}]'
export TOKENVEND_PASSWORD_TIME_COST=1 TOKENVEND_PASSWORD_MEMORY_COST=8192 TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE=100000

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
  at=$(curl -fs -H 'Content-Type: application/json' -H 'X-Auth-Strategy: bearer' -d '{"email":"bench@example.com","password":"bench-password-1"}' "http://127.0.0.1:$p/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  alg=$(python3 -c 'import base64,json,sys; h=sys.argv[1].split(".")[0]; print(json.loads(base64.urlsafe_b64decode(h + "=" * (-len(h) % 4)))["alg"])' "$at")
  [ "$alg" = "$name" ] || { echo "server $name signs with $alg" >&2; exit 1; }
  printf 'wrk.method="POST"\nwrk.headers["Authorization"]="Bearer %s"\n' "$at" > "$work/$name.lua"
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
