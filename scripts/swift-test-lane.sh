#!/usr/bin/env bash
# Runs `swift test "$@"` as one of several concurrent lanes of `make test`. Every `swift test`, even with
# `--skip-build --ignore-lock`, first opens SwiftPM's build database (.build/build.db) to plan; two doing that at the
# same moment can fail with "database is locked". So a lane holds an exclusive lock (flock on
# .build/test-lanes.lock) from its start until its test binary prints its first line, which is after planning:
# the plans run one after the other, the tests side by side. The wait is on that line (tail follows the output),
# not on a sleep. The exit status is swift test's.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$root/.build"
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
exec 9>"$root/.build/test-lanes.lock"
flock 9
swift test "$@" >"$output" 2>&1 &
pid=$!
# The first line the test binary writes ("Test Suite 'Selected tests' started", or an error), or the end of swift test.
tail -n +1 -f --pid="$pid" "$output" | grep -m 1 -E "Test Suite|Test run started|error:" >/dev/null
flock -u 9
exec 9>&-
wait "$pid"
status=$?
cat "$output"
exit "$status"
