#!/usr/bin/env bash
# Runs CMD ARGS… with a throw-away PostgreSQL cluster, and removes the cluster afterwards (also when CMD fails or
# the script is interrupted); exits with CMD's status.
#
#   scripts/with-postgres.sh swift test --skip-build --no-parallel --filter PostgresStoreTests
#
# The cluster lives in a temporary folder: initdb and pg_ctl run as the unprivileged `postgres` user when started
# as root (root cannot run the server), trust authentication, superuser `tokenvend`, 127.0.0.1 on a free port and
# a Unix socket in that folder, max_connections=200 so that tests running several pools at once fit, and fsync,
# synchronous_commit and full_page_writes off: the cluster is thrown away, no test crashes the machine under it
# (tests kill tokenvend, or stop PostgreSQL with `-m fast`, which writes everything out), and every commit skipping
# its flush makes the PostgreSQL passes of `make test` about 25 % faster. CMD sees:
#   TOKENVEND_TEST_POSTGRES_URL  postgres://tokenvend@127.0.0.1:PORT/postgres (tests make their own database)
#   TOKENVEND_TEST_POSTGRES_CTL  an executable taking `start`, `stop` or `restart`, for tests that take the
#                                server away and bring it back
# PostgreSQL is installed from Debian when missing (scripts/ensure-system-packages.sh).
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 CMD [ARGS…]" >&2
    exit 64
fi

here="$(cd "$(dirname "$0")" && pwd)"
if ! command -v pg_config >/dev/null 2>&1 || [ ! -x "$(pg_config --bindir)/initdb" ]; then
    "$here/ensure-system-packages.sh"
fi
bindir="$(pg_config --bindir)"

folder="$(mktemp -d /tmp/tokenvend-pg.XXXXXX)"
chmod 0755 "$folder"
runner=()
if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$folder"
    runner=(su postgres -s /bin/sh -c)
else
    runner=(sh -c)
fi

# A free port: bind port 0 and read back what the kernel chose (a race with other processes is possible but
# unlikely; pg_ctl start fails loudly if it happens).
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

child=""
cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
        kill -TERM "$child" 2>/dev/null || true
        wait "$child" 2>/dev/null || true
    fi
    if [ -f "$folder/data/postmaster.pid" ]; then
        "${runner[@]}" "$bindir/pg_ctl -D $folder/data -m immediate -w stop" >/dev/null 2>&1 || true
    fi
    rm -rf "$folder"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${runner[@]}" "$bindir/initdb -D $folder/data -A trust -U tokenvend --no-instructions" >"$folder/initdb.log" 2>&1 || {
    cat "$folder/initdb.log" >&2
    exit 1
}

# The control script tests call; `stop` and `restart` use the fast mode (every connection ends, as in a failover).
cat >"$folder/pgctl" <<EOF
#!/bin/sh
set -e
options="-k $folder -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
run() { if [ "\$(id -u)" -eq 0 ]; then su postgres -s /bin/sh -c "\$1"; else sh -c "\$1"; fi; }
case "\$1" in
    start) run "$bindir/pg_ctl -D $folder/data -w -l $folder/log -o '\$options' start" >/dev/null ;;
    stop) run "$bindir/pg_ctl -D $folder/data -w -m fast stop" >/dev/null ;;
    restart) run "$bindir/pg_ctl -D $folder/data -w -m fast -l $folder/log -o '\$options' restart" >/dev/null ;;
    *) echo "usage: \$0 start|stop|restart" >&2; exit 64 ;;
esac
EOF
chmod 0755 "$folder/pgctl"

"$folder/pgctl" start || {
    cat "$folder/log" >&2 || true
    exit 1
}

export TOKENVEND_TEST_POSTGRES_URL="postgres://tokenvend@127.0.0.1:$port/postgres"
export TOKENVEND_TEST_POSTGRES_CTL="$folder/pgctl"
export TOKENVEND_TEST_POSTGRES_SOCKET="$folder"
echo "with-postgres: cluster on 127.0.0.1:$port in $folder" >&2

# CMD runs in the background so that INT and TERM reach the traps at once (they stop CMD, then the cluster).
set +e
"$@" &
child=$!
wait "$child"
status=$?
child=""
set -e
exit "$status"
