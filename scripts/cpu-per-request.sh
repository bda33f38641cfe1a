#!/usr/bin/env bash
# /healthz CPU time per request: nginx (1 worker) against one or more tokenvend binaries, alternating rounds, pinned as
# ../shared/bench/pair-nginx.sh (servers on CPU 0, wrk -t1 on CPU 1). It reads each server's thread run time from
# /proc/PID/task/*/schedstat around each round and divides by the requests served, so on a machine shared with other
# work it still measures what a request costs the server, not how much CPU the scheduler gave it (req/s ratios swing
# from 0.6 to 1.6 there). Prints nginx's CPU per request divided by each binary's: the req/s ratio each would reach
# with the core to itself.
# Extra environment (e.g. TOKENVEND_LOG_HEALTH_CHECKS=true) reaches every tokenvend. Needs wrk and nginx-light.
# usage: scripts/cpu-per-request.sh ROUNDS CONNS SECS TOKENVEND_BINARY...
set -euo pipefail
rounds=$1; conns=$2; secs=$3; shift 3
work=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
error_log /dev/null crit;
pid $work/nginx.pid;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000;
  server { listen 127.0.0.1:18182; location = /healthz { default_type application/json; return 200 '{"status":"ok"}'; } } }
CONF
taskset -c 0 nginx -c "$work/nginx.conf" & pids+=($!)
names=(nginx); ports=(18182); spids=()
i=0
for tv in "$@"; do
  port=$((18190 + i))
  TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE=100000 taskset -c 0 "$tv" serve --host 127.0.0.1 --port $port --database "$work/tv$i.sqlite" >"$work/tv$i.log" 2>&1 & pids+=($!)
  names+=("$(basename "$(dirname "$tv")")/$(basename "$tv")"); ports+=($port); i=$((i + 1))
done
for p in "${ports[@]}"; do for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$p/healthz" >/dev/null 2>&1 && break; sleep 0.05; done; done
sleep 0.3
spids=("$(pgrep -P "${pids[0]}" | head -1)" "${pids[@]:1}")
runtime() { cat /proc/$1/task/*/schedstat | awk '{s += $1} END {printf "%.0f", s}'; }
for idx in "${!ports[@]}"; do taskset -c 1 wrk -t1 -c"$conns" -d2s "http://127.0.0.1:${ports[$idx]}/healthz" >/dev/null; done
declare -A res
for r in $(seq 1 "$rounds"); do
  line="round $r:"
  for idx in "${!ports[@]}"; do
    before=$(runtime "${spids[$idx]}")
    out=$(taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" "http://127.0.0.1:${ports[$idx]}/healthz")
    after=$(runtime "${spids[$idx]}")
    n=$(echo "$out" | awk '/requests in/ {print $1}'); rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    ns=$(( (after - before) / n ))
    res[$idx]="${res[$idx]:-} $ns"
    line="$line ${names[$idx]} ${ns} ns/req (${rps} req/s);"
  done
  echo "$line"
done
args=(); for idx in "${!ports[@]}"; do args+=("${names[$idx]}=${res[$idx]}"); done
python3 - "${args[@]}" <<'PY'
import statistics, sys
rows = [(a.split('=')[0], [float(x) for x in a.split('=')[1].split()]) for a in sys.argv[1:]]
base = rows[0][1]
for name, v in rows:
    r = [b / x for b, x in zip(base, v)]
    print(f"{name}: median {statistics.median(v):.0f} ns CPU per request; nginx/this {statistics.median(r):.2f} (min {min(r):.2f}, max {max(r):.2f})")
PY
