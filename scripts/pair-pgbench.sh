#!/usr/bin/env bash
# tokenvend on PostgreSQL against PostgreSQL's own yardstick, side by side on one throw-away cluster:
#   1. `pgbench -N -c CONNS -j 1 -T SECS` (after `pgbench -i -s 4`) against `scripts/bench-auth.sh refresh` with
#      the same number of clients (wrk connections; CONNS token chains rotated by one wrk thread) on a fresh
#      database of the same cluster, alternated in ROUNDS rounds; prints each round and the median ratio (target ≥ 0.8×);
#   2. `scripts/bench-auth.sh stream` (POST /stream-token, one bearer token) on SQLite and on PostgreSQL,
#      alternated the same way; prints the median ratio PostgreSQL / SQLite (target ≥ 0.8×).
# pgbench and wrk run on CPU 1, tokenvend on CPU 0 (bench-auth.sh pins them); the PostgreSQL server is not
# pinned. The cluster has fsync on (with-postgres.sh's defaults).
#
# usage: scripts/pair-pgbench.sh TOKENVEND_BINARY [ROUNDS=3] [CONNS=32] [SECS=10]
#   TOKENVEND_BINARY: a release build (swift build -c release --product tokenvend).
# Runs itself under scripts/with-postgres.sh when TOKENVEND_TEST_POSTGRES_URL is not set. Needs wrk, pgbench,
# psql, curl, python3, taskset.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -ge 1 ] || { echo "usage: $0 TOKENVEND_BINARY [ROUNDS] [CONNS] [SECS]" >&2; exit 2; }
if [ -z "${TOKENVEND_TEST_POSTGRES_URL:-}" ]; then
  exec "$here/with-postgres.sh" "$0" "$@"
fi
tv=$(readlink -f "$1"); rounds=${2:-3}; conns=${3:-32}; secs=${4:-10}
command -v wrk >/dev/null || { echo "install wrk: apt-get install -y wrk" >&2; exit 2; }
cluster=$TOKENVEND_TEST_POSTGRES_URL
# tokenvend refuses unknown TOKENVEND_* variables: the cluster's are for tests, not for the server.
unset TOKENVEND_TEST_POSTGRES_URL TOKENVEND_TEST_POSTGRES_CTL TOKENVEND_TEST_POSTGRES_SOCKET
base=${cluster%/*}
sql() { psql -X -A -t -q -v ON_ERROR_STOP=1 -d "$cluster" -c "$1"; }
rate() { awk '/Requests\/sec/ {print $2}'; }

echo "pgbench -i -s 4"
sql "CREATE DATABASE bench_pgbench"
pgbench -i -s 4 -q "$base/bench_pgbench" >/dev/null 2>&1

fresh() {  # a new empty database for one tokenvend run; prints its URL
  local name="bench_tv_$1"
  sql "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null
  sql "CREATE DATABASE $name" >/dev/null
  echo "$base/$name"
}

declare -a pg tv_refresh ratio_refresh sq st ratio_stream
for r in $(seq 1 "$rounds"); do
  p=$(taskset -c 1 pgbench -N -n -c "$conns" -j 1 -T "$secs" "$base/bench_pgbench" 2>/dev/null |
    awk '/^tps/ {print $3; exit}')
  out=$(BENCH_DATABASE_URL=$(fresh "refresh_$r") "$here/bench-auth.sh" refresh "$tv" "$conns" "$secs")
  t=$(rate <<<"$out")
  grep -q 'Non-2xx' <<<"$out" && { echo "round $r: refresh answered non-2xx:"; grep 'Non-2xx' <<<"$out"; }
  pg+=("$p"); tv_refresh+=("$t"); ratio_refresh+=("$(python3 -c "print(f'{$t / $p:.2f}')")")
  echo "round $r: pgbench -N $p tps, tokenvend refresh on PostgreSQL $t req/s, ratio ${ratio_refresh[-1]}"
done
for r in $(seq 1 "$rounds"); do
  s=$("$here/bench-auth.sh" stream "$tv" "$conns" "$secs" | rate)
  out=$(BENCH_DATABASE_URL=$(fresh "stream_$r") "$here/bench-auth.sh" stream "$tv" "$conns" "$secs")
  t=$(rate <<<"$out")
  grep -q 'Non-2xx' <<<"$out" && { echo "round $r: stream-token answered non-2xx:"; grep 'Non-2xx' <<<"$out"; }
  sq+=("$s"); st+=("$t"); ratio_stream+=("$(python3 -c "print(f'{$t / $s:.2f}')")")
  echo "round $r: /stream-token on SQLite $s req/s, on PostgreSQL $t req/s, ratio ${ratio_stream[-1]}"
done
python3 - "${ratio_refresh[*]}" "${ratio_stream[*]}" "${pg[*]}" "${tv_refresh[*]}" "${sq[*]}" "${st[*]}" <<'PY'
import statistics, sys
refresh, stream, pg, tv, sq, st = ([float(x) for x in arg.split()] for arg in sys.argv[1:])
m = statistics.median
print(f"median: pgbench -N {m(pg):.0f} tps, refresh on PostgreSQL {m(tv):.0f}/s, ratio {m(refresh):.2f} "
      f"(min {min(refresh):.2f}, max {max(refresh):.2f}; target >= 0.8)")
print(f"median: /stream-token SQLite {m(sq):.0f}/s, PostgreSQL {m(st):.0f}/s, ratio {m(stream):.2f} "
      f"(min {min(stream):.2f}, max {max(stream):.2f}; target >= 0.8)")
PY
