#!/usr/bin/env bash
# Runs each argument as a bash command at the same time, waits for all, then prints each one's output in the order
# given (never interleaved) and exits 1 if any failed, naming it. `make test` uses it only for work that cannot
# disturb the other: swift-format beside the build, the idle 30-second SMTP outage test beside the Swift tests, and
# the checks against the built binary (each on its own server and ports) in two lanes.
#
#   scripts/concurrently.sh 'cmd one' 'cmd two && cmd three'
set -uo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND…" >&2
    exit 64
fi
folder="$(mktemp -d)"
trap 'rm -rf "$folder"' EXIT
pids=()
for i in $(seq 1 $#); do
    bash -c "${!i}" >"$folder/$i.log" 2>&1 &
    pids+=("$!")
done
failed=0
for i in $(seq 1 $#); do
    status=0
    wait "${pids[$((i - 1))]}" || status=$?
    echo "==> ${!i}"
    cat "$folder/$i.log"
    if [ "$status" -ne 0 ]; then
        echo "concurrently: exit $status from: ${!i}" >&2
        failed=1
    fi
done
exit "$failed"
