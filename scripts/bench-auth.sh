#!/usr/bin/env bash
# End-to-end load checks of tokenvend's auth endpoints over keep-alive, server pinned to CPU 0, wrk on CPU 1.
#
# usage: scripts/bench-auth.sh refresh|me|stream|moss|storm TOKENVEND_BINARY [CONNS=32] [SECS=10]
#   refresh: POST /auth/refresh; CONNS token chains (one session each) rotated by one wrk thread: a request takes
#            a token from the pool, the Lua response() hook puts the new refreshToken back.
#   me:      GET /auth/me with one bearer access token.
#   stream:  POST /stream-token (no body: all the caller's customer ids) with one bearer access token.
#   moss:    GET /moss-token served from the cache (a local fake Moss upstream answers the first fetch).
#   storm:   CONNS clients on POST /auth/login (valid password) while 32 connections run GET /auth/me;
#            prints both wrk summaries (the /auth/me p99 is the figure to watch).
# Prints wrk's summary with latency percentiles, the count of non-2xx answers (wrk's "Non-2xx" line; absent
# means none; for refresh, one failed rotation breaks that connection's chain, so every later request on it
# fails too), and the server's peak RSS.
# The server runs with its defaults (SQLite synchronous=FULL: every refresh is a durable commit).
# BENCH_DATABASE_URL=postgres://… puts the server on that (empty) PostgreSQL database instead of a new SQLite file,
# with configured keys (a shared store refuses development keys); scripts/pair-pgbench.sh uses it.
set -euo pipefail
mode=${1:?mode}; tv=$(readlink -f "${2:?tokenvend binary}"); conns=${3:-32}; secs=${4:-10}
work=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
port=18080; base="http://127.0.0.1:$port"
wait_up() { for _ in $(seq 1 200); do curl -fs "$1/healthz" >/dev/null 2>&1 && return 0; sleep 0.05; done; echo "server $1 did not start:" >&2; tail -3 "$work/tv.log" >&2; exit 1; }

export TOKENVEND_STREAM_KEYS='[{"kid":"bench","secret":"bench-secret-bench-secret-bench-secret-bench-secret-bench-secret-0001"}]'
export TOKENVEND_PASSWORD_TIME_COST=${TOKENVEND_PASSWORD_TIME_COST:-1}
export TOKENVEND_PASSWORD_MEMORY_COST=${TOKENVEND_PASSWORD_MEMORY_COST:-8192}
export TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE=1000000
export TOKENVEND_RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT=1000
# storm logs the same user in thousands of times: keep its /auth/me session clear of the per-user session cap.
export TOKENVEND_SESSION_MAX_PER_USER=10000
if [ "$mode" = moss ]; then
  # A fake Moss auth service: every POST gets a one-hour project token.
  python3 - <<'PY' >"$work/moss.log" 2>&1 &
import http.server, json
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"token": "moss-project-token-" + "x" * 200, "expiresIn": 3600}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", 18097), H).serve_forever()
PY
  pids+=($!); sleep 0.5
  export TOKENVEND_MOSS_PROJECT_ID=bench TOKENVEND_MOSS_PROJECT_KEY=bench-project-key
  export TOKENVEND_MOSS_AUTH_URL=http://127.0.0.1:18097/token
fi
store=(--database "$work/tv.sqlite")
if [ -n "${BENCH_DATABASE_URL:-}" ]; then
  # An empty configuration file: Config/tokenvend.json of the working directory names database.path.
  echo '{}' >"$work/empty.json"; store=(--config "$work/empty.json")
  export TOKENVEND_DATABASE_URL="$BENCH_DATABASE_URL"
  export TOKENVEND_ACCESS_TOKEN_KEYS='[{"kid":"bench-at","secret":"access-secret-access-secret-access-secret-access-secret-access-0001"}]'
  export TOKENVEND_REFRESH_TOKEN_SECRET=refresh-secret-refresh-secret-refresh-secret-refresh-secret-refresh-01
fi
taskset -c 0 "$tv" serve --host 127.0.0.1 --port "$port" "${store[@]}" >"$work/tv.log" 2>&1 &
server=$!; pids+=("$server"); wait_up "$base"

json='Content-Type: application/json'
curl -fs -H "$json" -d '{"email":"bench@example.com","password":"bench-password-1"}' "$base/auth/register" >/dev/null
login() { curl -fs -H "$json" -H 'X-Auth-Strategy: bearer' -d '{"email":"bench@example.com","password":"bench-password-1"}' "$base/auth/login"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)[\"$1\"])"; }
summary() { grep -E 'Requests/sec|Latency|50%|99%|Non-2xx|Socket errors|requests in' || true; }

case $mode in
  refresh)
    # One session (and refresh token chain) per connection, from a pool the one wrk thread shares: a request
    # takes a token, its response gives the rotated one back. One client thread, like `pgbench -j 1`: 32 wrk
    # threads on one CPU would compete with the PostgreSQL backends there and measure the scheduler.
    # wrk calls request() once before the run to check the script, and that request is never sent: one more.
    : >"$work/tokens"
    for _ in $(seq 0 "$conns"); do login | field refreshToken >>"$work/tokens"; done
    cat >"$work/refresh.lua" <<LUA
local tokens = {}
for line in io.lines("$work/tokens") do tokens[#tokens + 1] = line end
function request()
  local token = table.remove(tokens) or "exhausted"
  return wrk.format("POST", "/auth/refresh", {["Content-Type"] = "application/json"},
    '{"refreshToken":"' .. token .. '"}')
end
function response(status, headers, body)
  local fresh = status == 200 and body:match('"refreshToken"%s*:%s*"([^"]+)"')
  -- A refused rotation (counted as non-2xx by wrk) ends its chain; the bench then reports it.
  if fresh then tokens[#tokens + 1] = fresh end
end
LUA
    taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$work/refresh.lua" "$base/auth/refresh" | summary
    ;;
  me|moss|stream)
    at=$(login | field accessToken)
    path=/auth/me; method=GET
    [ "$mode" = moss ] && path=/moss-token
    [ "$mode" = stream ] && path=/stream-token && method=POST
    curl -fs -X "$method" -H "Authorization: Bearer $at" "$base$path" >/dev/null || { echo "first $path failed:"; curl -s -X "$method" -H "Authorization: Bearer $at" "$base$path"; tail -5 "$work/tv.log"; exit 1; }
    printf 'wrk.method="%s"\nwrk.headers["Authorization"]="Bearer %s"\n' "$method" "$at" >"$work/get.lua"
    taskset -c 1 wrk -t1 -c"$conns" -d2s -s "$work/get.lua" "$base$path" >/dev/null
    taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$work/get.lua" "$base$path" | summary
    ;;
  storm)
    at=$(login | field accessToken)
    printf 'wrk.headers["Authorization"]="Bearer %s"\n' "$at" >"$work/get.lua"
    printf 'wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\nwrk.body=%s\n' \
      "'{\"email\":\"bench@example.com\",\"password\":\"bench-password-1\"}'" >"$work/login.lua"
    taskset -c 1 wrk -t2 -c"$conns" -d"$((secs + 2))s" --latency -s "$work/login.lua" "$base/auth/login" >"$work/storm.txt" &
    storm=$!
    sleep 1
    taskset -c 1 wrk -t1 -c32 -d"${secs}s" --latency -s "$work/get.lua" "$base/auth/me" >"$work/me.txt"
    wait "$storm"
    echo "== POST /auth/login ($conns connections)"; summary <"$work/storm.txt"
    echo "== GET /auth/me (32 connections, during the storm)"; summary <"$work/me.txt"
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
echo "tokenvend peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2, $3}')"
