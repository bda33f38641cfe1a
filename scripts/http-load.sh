#!/usr/bin/env bash
# Load checks for the HTTPServer module with Fuzz/'s healthz-server (release build), server pinned to CPU 0.
# usage: scripts/http-load.sh wrk [CONNS=32] [SECS=5]
#        scripts/http-load.sh slowloris|slowbody|slowread [CONNS=4000] [extra healthz-server flags...]
# wrk: prints req/s, p99 and the server's peak RSS (VmHWM); wrk runs on CPU 1.
# slow*: holds CONNS slowhttptest connections (-H, -B on POST /echo, -X pipelined slow reader) and, from the
# 16th second for 15 s, runs a curl loop on GET /healthz; prints the success rate, p50/p99 and peak RSS.
# TOKENVEND=path/to/tokenvend runs the real `tokenvend serve` instead (fresh database in a temporary folder;
# slowbody then posts to /auth/login; extra flags go to `serve`).
set -euo pipefail
mode=${1:?mode}; shift
root=$(cd "$(dirname "$0")/.." && pwd)
port=18199
pids=(); scratch=$(mktemp -d)
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$scratch"; }
trap cleanup EXIT
echo_path=/echo
if [ -n "${TOKENVEND:-}" ]; then
  echo_path=/auth/login
else
  (cd "$root/Fuzz" && swift build -c release --product healthz-server --scratch-path .build-fuzz >/dev/null)
fi
start_server() {
  if [ -n "${TOKENVEND:-}" ]; then
    TOKENVEND_STREAM_KEYS='[{"kid":"load","secret":"load-secret-load-secret-load-secret-load-secret-load-secret-0001"}]' \
      taskset -c 0 "$TOKENVEND" serve --host 127.0.0.1 --port "$port" --database "$scratch/tv.sqlite" "$@" \
      >"$scratch/server.log" 2>&1 &
  else
    taskset -c 0 "$root/Fuzz/.build-fuzz/release/healthz-server" --port "$port" "$@" >/dev/null 2>&1 &
  fi
  server=$!; pids+=("$server")
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return; sleep 0.05; done
  echo "server did not start" >&2; exit 1
}
case $mode in
  wrk)
    conns=${1:-32}; secs=${2:-5}
    start_server
    taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" --latency "http://127.0.0.1:$port/healthz" | grep -E 'Requests/sec|99%|Non-2xx|errors'
    grep VmHWM "/proc/$server/status" ;;
  slowloris|slowbody|slowread)
    conns=${1:-4000}; shift || true
    start_server "$@"
    case $mode in
      slowloris) args=(-H -u "http://127.0.0.1:$port/healthz") ;;
      slowbody) args=(-B -s 8192 -u "http://127.0.0.1:$port$echo_path") ;;
      slowread) args=(-X -k 10 -w 1 -y 2 -n 5 -z 1 -u "http://127.0.0.1:$port/healthz") ;;
    esac
    slowhttptest -c "$conns" -i 10 -r 1000 -l 45 -x 10 -p 3 "${args[@]}" >/dev/null 2>&1 & pids+=($!)
    sleep 16
    out=$(mktemp); end=$((SECONDS + 15))
    while [ $SECONDS -lt $end ]; do
      curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time 3 "http://127.0.0.1:$port/healthz" >>"$out" || true
    done
    echo "server descriptors open: $(ls "/proc/$server/fd" | wc -l)"
    grep VmHWM "/proc/$server/status"
    python3 - "$out" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
ok = [r for r in rows if r[0] == '200']
lat = sorted(float(r[1]) for r in rows)
p99 = lat[max(0, int(len(lat) * 0.99) - 1)]
print(f"GET /healthz: {len(ok)}/{len(rows)} ok ({100 * len(ok) / max(1, len(rows)):.1f} %), "
      f"p50 {lat[len(lat) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
PY
    rm -f "$out" ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
