#!/usr/bin/env bash
# Slow clients beyond the connection cap, against the real `tokenvend serve` (release build), loopback only.
# usage: scripts/slow-clients.sh [CONNS=3000] [MAX_CONNECTIONS=1000] [PHASE_SECONDS=40]
#
# With server.maxConnections=MAX_CONNECTIONS, three phases one after another, each CONNS slowhttptest
# connections for PHASE_SECONDS: slowloris (-H, heads that never end), slow bodies (-B, POST /auth/login
# bodies that trickle), slow readers (-X, pipelined requests read a byte at a time). During each phase, from its
# 8th second until 5 s before its end, a new client asks GET /healthz over and over on fresh connections.
# Prints, per phase and in total, the share of those requests answered 200 and their p50/p99 latency, then the
# server's peak RSS (VmHWM) and whether it still answers afterwards, each against the targets (>= 99 %,
# p99 <= 1 s, <= 60 MiB, alive). Exits 0 when every target is met, 1 otherwise.
# Needs: slowhttptest (apt-get install -y slowhttptest), curl, python3; builds tokenvend in release mode
# unless TOKENVEND=path/to/tokenvend is given. Stops by itself (about 3 x PHASE_SECONDS + 10 s).
set -euo pipefail
conns=${1:-3000}; max_connections=${2:-1000}; phase_seconds=${3:-40}
root=$(cd "$(dirname "$0")/.." && pwd)
port=${PORT:-18299}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
command -v slowhttptest >/dev/null || { echo "slowhttptest missing: apt-get install -y slowhttptest" >&2; exit 2; }
if [ -z "${TOKENVEND:-}" ]; then
  (cd "$root" && swift build -c release --product tokenvend >/dev/null)
  TOKENVEND="$root/.build/release/tokenvend"
fi
scratch=$(mktemp -d); pids=()
cleanup() {
  for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT

cd "$scratch"  # away from Config/tokenvend.json
TOKENVEND_SERVER_MAX_CONNECTIONS=$max_connections TOKENVEND_LOG_LEVEL=error \
  TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE=1000000 \
  "$TOKENVEND" serve --host 127.0.0.1 --port "$port" --database "$scratch/tv.sqlite" >"$scratch/server.log" 2>&1 &
server=$!; pids+=("$server")
for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.05; done
curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || { echo "server did not start" >&2; cat "$scratch/server.log" >&2; exit 1; }

probe_end=$((phase_seconds - 5))
for phase in slowloris slowbody slowread; do
  case $phase in
    slowloris) args=(-H -u "http://127.0.0.1:$port/healthz") ;;
    slowbody) args=(-B -s 8192 -u "http://127.0.0.1:$port/auth/login") ;;
    slowread) args=(-X -k 10 -w 1 -y 2 -n 5 -z 1 -u "http://127.0.0.1:$port/healthz") ;;
  esac
  slowhttptest -c "$conns" -i 5 -r 1000 -l "$phase_seconds" -x 10 -p 3 "${args[@]}" >"$scratch/$phase.out" 2>&1 &
  attacker=$!; pids+=("$attacker")
  sleep 8
  end=$((SECONDS + probe_end - 8))
  while [ $SECONDS -lt $end ]; do
    curl -s -o /dev/null -w "$phase %{http_code} %{time_total}\n" --max-time 3 \
      "http://127.0.0.1:$port/healthz" >>"$scratch/probes" || echo "$phase 000 3" >>"$scratch/probes"
  done
  echo "$phase: server descriptors open $(ls "/proc/$server/fd" | wc -l)," \
    "slowhttptest peak connected $(sed 's/\x1b\[[0-9;]*m//g' "$scratch/$phase.out" | grep -Eo 'connected: *[0-9]+' \
      | grep -Eo '[0-9]+' | sort -n | tail -1 || echo '?')"
  wait "$attacker" 2>/dev/null || true
done
sleep 1
alive=no; kill -0 "$server" 2>/dev/null && curl -fs --max-time 2 "http://127.0.0.1:$port/healthz" >/dev/null && alive=yes
hwm_kib=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
python3 - "$scratch/probes" "$hwm_kib" "$alive" "$conns" "$max_connections" <<'PY'
import sys
path, hwm_kib, alive, conns, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
rows = [l.split() for l in open(path) if l.strip()]
ok_all = True
def report(name, sel):
    global ok_all
    ok = [r for r in sel if r[1] == '200']
    lat = sorted(float(r[2]) for r in sel)
    p99 = lat[min(len(lat) - 1, max(0, -(-len(lat) * 99 // 100) - 1))] if lat else float('inf')
    share = 100 * len(ok) / max(1, len(sel))
    good = share >= 99 and p99 <= 1.0 and len(sel) > 0
    ok_all &= good
    print(f"{name:10s} GET /healthz {len(ok)}/{len(sel)} answered ({share:.2f} %), "
          f"p50 {lat[len(lat) // 2] * 1000 if lat else float('nan'):.1f} ms, p99 {p99 * 1000:.1f} ms  "
          f"[{'ok' if good else 'MISSED'}: >= 99 %, p99 <= 1 s]")
print(f"server.maxConnections={cap}, {conns} slowhttptest connections per phase")
for phase in ('slowloris', 'slowbody', 'slowread'):
    report(phase, [r for r in rows if r[0] == phase])
report('total', rows)
mib = hwm_kib / 1024
print(f"peak RSS (VmHWM) {mib:.1f} MiB  [{'ok' if mib <= 60 else 'MISSED'}: <= 60 MiB]")
print(f"alive afterwards: {alive}  [{'ok' if alive == 'yes' else 'MISSED'}]")
sys.exit(0 if ok_all and mib <= 60 and alive == 'yes' else 1)
PY
