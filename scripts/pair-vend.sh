#!/usr/bin/env bash
# The vend benchmark of issue 18, two figures from one release build:
#
# 1. POST /vend/chat (a `stream-chat` preset: HS256 {"user_id","iat","exp"}) against POST /stream-token (HS512
#    {"exp","iat","ids"}) on ONE server configured with both, side by side in one run (modelled on
#    ../shared/bench/pair.sh): server pinned to CPU 0, wrk on CPU 1, keep-alive, the same connections and duration,
#    rounds alternating A B A B …, one bearer access token (so both paths hit the verified-token cache alike: a
#    request is one cache lookup, one session check, one sign). Neither request has a body. Prints each round, the
#    medians and the median ratio vend/stream-token. Target: ≥ 0.9.
# 2. Startup with 50 vendors configured: the time from exec to the first 200 of GET /healthz, with 50 vendors
#    (10 each of livekit, twilio, bloomreach-customer, stream-chat, and 10 templates of our own: 5 HS256, 5 ES256
#    from PEM files, with string, enum, integer and boolean parameters, patterns and allowedByRole) minus the same
#    with no vendors, the configurations otherwise identical (configured keys, one already-migrated SQLite file).
#    Runs alternate 0, 50, 0, 50 … after one warm-up each; prints the medians and the median of the paired
#    differences in ms. Target: < 100 ms. tokenvend has no configuration-check mode (`tokenvend --help`: serve,
#    users, db, healthcheck, keys, jwt, login, token, logout), but `tokenvend keys jwks --config F` loads and
#    validates the whole configuration, vendors compiled (keys, patterns) as for serve, without opening the store
#    or a socket, and exits: the same paired difference of its exec-to-exit time is printed as the second figure,
#    the vendors' cost with less of the server's start-up noise around it.
#
# usage: scripts/pair-vend.sh [--only load|startup] [ROUNDS=3] [CONNS=32] [SECS=10] [STARTUP_RUNS=11]
#   Builds `swift build -c release --product tokenvend` unless TOKENVEND_BIN names a release binary.
# Needs: wrk (apt-get install -y wrk), curl, python3, taskset. Run it on an idle machine: it warns when the
# one-minute load average is above 1.5 (a build running), which makes both figures meaningless.
set -euo pipefail
cd "$(dirname "$0")/.."
only=
if [ "${1:-}" = --only ]; then only=${2:?--only load|startup}; shift 2; fi
case "$only" in ""|load|startup) ;; *) echo "--only must be load or startup" >&2; exit 2 ;; esac
rounds=${1:-3}; conns=${2:-32}; secs=${3:-10}; startup_runs=${4:-11}
command -v wrk >/dev/null || [ "$only" = startup ] || { echo "install wrk: apt-get install -y wrk" >&2; exit 2; }
# The binary as $tv, $work and $pids with their clean-up, no inherited TOKENVEND_* (scripts/bench-setup.sh).
source scripts/bench-setup.sh
wait_up() { for _ in $(seq 1 200); do curl -fs "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0; sleep 0.05; done; echo "server on $1 did not start:" >&2; tail -5 "$work/$2.log" >&2; exit 1; }

# Five ES256 keys for the templates of our own (PEM, as `tokenvend keys generate` writes them).
for i in 1 2 3 4 5; do "$tv" keys generate --alg ES256 --kid "bench-es-$i" --out "$work/es256-$i.pem" >/dev/null; done

# The configurations: base (shared), load (base + stream-chat vendor `chat`), v0 and v50 (base + 0 / 50 vendors).
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
secret = lambda tag: (tag + "-bench-secret-") * 3 + "0123456789abcdef0123456789abcdef"
base = {
    "database": {"path": os.path.join(work, "tv.sqlite")},
    "accessToken": {"keys": [{"kid": "bench-at", "secret": secret("access")}], "ttlSeconds": 3600},
    "refreshToken": {"secret": secret("refresh")},
    "password": {"timeCost": 1, "memoryCost": 8192},
    "rateLimit": {"requestsPerAddressPerMinute": 1000000},
    "stream": {"keys": [{"kid": "bench", "secret": secret("stream")}]},
    "log": {"level": "warning"},
}
vendors = {}
for i in range(10):
    vendors[f"video{i}"] = {"preset": "livekit", "apiKey": f"APIbench{i}", "apiSecret": secret(f"livekit{i}"),
                            "serverURL": f"wss://livekit{i}.example.com", "canPublish": i % 2 == 0,
                            "roomsByRole": {"user": f"^lobby{i}-[a-z0-9]+$", "admin": "^.*$"}}
    vendors[f"twilio{i}"] = {"preset": "twilio", "accountSid": "AC" + f"{i:032x}", "apiKeySid": "SK" + f"{i:032x}",
                             "apiKeySecret": secret(f"twilio{i}")}
    vendors[f"engagement{i}"] = {"preset": "bloomreach-customer", "keyId": f"engagement-key-{i}",
                                 "secret": secret(f"engagement{i}")}
    vendors[f"chat{i}"] = {"preset": "stream-chat", "apiKey": f"chat-key-{i}", "apiSecret": secret(f"chat{i}")}
    if i < 5:
        keys = [{"kid": f"own{i}-a", "secret": secret(f"own{i}a")}, {"kid": f"own{i}-b", "secret": secret(f"own{i}b")}]
        alg = "HS256"
    else:
        keys = [{"kid": f"own{i}", "privateKeyFile": os.path.join(work, f"es256-{i - 4}.pem")}]
        alg = "ES256"
    vendors[f"own{i}"] = {
        "alg": alg, "keys": keys, "ttlSeconds": 600, "maxTtlSeconds": 3600, "jti": "random",
        "header": {"typ": "JWT", "kid": "{{key.kid}}"},
        "claims": {"iss": "tokenvend-bench", "sub": "{{user.id}}", "sid": "{{session.id}}", "role": "{{user.role}}",
                   "iat": "{{now}}", "exp": "{{exp}}", "jti": "{{jti}}",
                   "ctx": {"channel": "{{param.channel}}", "tier": "{{param.tier}}", "seats": "{{param.seats}}",
                           "muted": "{{param.muted}}"}},
        "parameters": {
            "channel": {"type": "string", "required": True, "pattern": "^[a-z][a-z0-9_-]{0,63}$", "maxLength": 64,
                        "allowedByRole": {"user": "^public-.*$", "admin": "^.*$"}},
            "tier": {"type": "string", "enum": ["free", "pro", "team"]},
            "seats": {"type": "integer", "minimum": 1, "maximum": 100},
            "muted": {"type": "boolean"},
        },
    }
assert len(vendors) == 50, len(vendors)
def write(name, extra):
    with open(os.path.join(work, name + ".json"), "w") as file:
        json.dump({**base, **extra}, file)
write("load", {"vendors": {"chat": {"preset": "stream-chat", "apiKey": "bench-chat",
                                    "apiSecret": secret("chat")}}})
write("v0", {})
write("v50", {"vendors": vendors})
PY

if [ "$only" != startup ]; then
  port=18110; base="http://127.0.0.1:$port"
  taskset -c 0 "$tv" serve --config "$work/load.json" --host 127.0.0.1 --port "$port" >"$work/load.log" 2>&1 &
  server=$!; pids+=("$server"); wait_up "$port" load
  json='Content-Type: application/json'
  curl -fs -H "$json" -d '{"email":"bench@example.com","password":"bench-password-1"}' "$base/auth/register" >/dev/null
  at=$(curl -fs -H "$json" -H 'X-Auth-Strategy: bearer' -d '{"email":"bench@example.com","password":"bench-password-1"}' "$base/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["accessToken"])')
  for path in /stream-token /vend/chat; do
    curl -fs -X POST -H "Authorization: Bearer $at" "$base$path" >/dev/null || { echo "first POST $path failed:" >&2; curl -s -X POST -H "Authorization: Bearer $at" "$base$path" >&2; tail -5 "$work/load.log" >&2; exit 1; }
  done
  printf 'wrk.method="POST"\nwrk.headers["Authorization"]="Bearer %s"\n' "$at" >"$work/post.lua"
  rate() { taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$work/post.lua" "$base$1" | tee -a "$work/wrk-$2.log" | awk '/Requests\/sec/ {print $2}'; }
  taskset -c 1 wrk -t1 -c"$conns" -d2s -s "$work/post.lua" "$base/stream-token" >/dev/null
  taskset -c 1 wrk -t1 -c"$conns" -d2s -s "$work/post.lua" "$base/vend/chat" >/dev/null
  echo "== POST /stream-token vs POST /vend/chat: $rounds round(s), $conns connections, ${secs}s each, server on CPU 0, wrk on CPU 1"
  ra=(); rb=()
  for r in $(seq 1 "$rounds"); do
    x=$(rate /stream-token stream); y=$(rate /vend/chat vend); ra+=("$x"); rb+=("$y")
    echo "round $r: /stream-token $x req/s, /vend/chat $y req/s"
  done
  for part in stream vend; do
    if grep -q 'Non-2xx\|Socket errors' "$work/wrk-$part.log"; then
      echo "warning: $part: $(grep -h 'Non-2xx\|Socket errors' "$work/wrk-$part.log" | sort | uniq -c | tr -s ' ' | paste -sd';')"
    fi
    echo "$part latency (last round): $(grep -E '^ +(50|99)%' "$work/wrk-$part.log" | tail -2 | tr -s ' ' | paste -sd,)"
  done
  echo "tokenvend peak RSS $(grep VmHWM /proc/$server/status | awk '{print $2, $3}')"
  report_ratio /stream-token /vend/chat vend/stream-token req/s 0.9 "${ra[*]}" "${rb[*]}"
  kill "$server"; wait "$server" 2>/dev/null || true
fi

if [ "$only" != load ]; then
  echo "== startup with 50 vendors minus none, $startup_runs runs each (+1 warm-up), tokenvend on CPU 0"
  taskset -c 1 python3 - "$tv" "$work" "$startup_runs" <<'PY'
import os, socket, statistics, subprocess, sys, time
binary, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
port = 18111

def healthy():
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
            return connection.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False

def once(name):
    with open(os.path.join(work, f"startup-{name}.log"), "w") as log:
        start = time.perf_counter()
        server = subprocess.Popen(["taskset", "-c", "0", binary, "serve", "--config", os.path.join(work, name + ".json"),
                                   "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=log)
        try:
            while not healthy():
                if server.poll() is not None:
                    sys.exit(f"tokenvend ({name}) exited with {server.returncode}: "
                             + open(os.path.join(work, f"startup-{name}.log")).read()[-2000:])
                if time.perf_counter() - start > 30:
                    sys.exit(f"tokenvend ({name}) did not answer /healthz within 30 s")
                time.sleep(0.0005)
            return (time.perf_counter() - start) * 1000
        finally:
            server.terminate()
            server.wait(timeout=30)

once("v0"); once("v50")  # warm-up: the first run migrates the database; both warm the page cache
times = {"v0": [], "v50": []}
for _ in range(runs):
    for name in ("v0", "v50"):
        times[name].append(once(name))

def check_once(name):
    """Exec to exit of `tokenvend keys jwks --config`: the configuration loaded and validated, nothing served."""
    start = time.perf_counter()
    done = subprocess.run(["taskset", "-c", "0", binary, "keys", "jwks", "--config", os.path.join(work, name + ".json")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"tokenvend keys jwks ({name}) exited with {done.returncode}: {done.stderr[-2000:]}")
    return (time.perf_counter() - start) * 1000

def summary(what, times):
    differences = [b - a for a, b in zip(times["v0"], times["v50"])]
    difference = statistics.median(differences)
    verdict = "meets" if difference < 100 else "MISSES"
    print(f"{what}: no vendors median {statistics.median(times['v0']):.1f} ms (min {min(times['v0']):.1f}), "
          f"50 vendors median {statistics.median(times['v50']):.1f} ms (min {min(times['v50']):.1f})")
    print(f"  50 vendors cost {difference:.1f} ms (median of {runs} paired differences; min "
          f"{min(differences):.1f}, max {max(differences):.1f}) — {verdict} the 100 ms target")

summary("serve, exec to the first 200 of /healthz", times)
check_once("v0"); check_once("v50")
checks = {"v0": [], "v50": []}
for _ in range(runs):
    for name in ("v0", "v50"):
        checks[name].append(check_once(name))
summary("keys jwks --config, exec to exit", checks)
PY
fi
