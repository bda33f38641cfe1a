#!/usr/bin/env bash
# Runs schemathesis (property-based requests generated from docs/openapi.yaml, every check: `--checks all`)
# against a real `tokenvend serve`, authenticated, seeded and bounded in time. Exit 0 when it reports nothing;
# 1 on any finding, on a timeout, or when the server does not start.
#
# Usage: scripts/check-schemathesis.sh [SEED…]      (default seed: $SCHEMATHESIS_SEEDS, else 1)
#   TOKENVEND_BIN           the server binary (default: the debug build, built when missing)
#   SCHEMATHESIS_EXAMPLES   --max-examples per operation (default 40)
#   SCHEMATHESIS_TIMEOUT    seconds allowed for each schemathesis run before it is killed (default 120)
#   SCHEMATHESIS_EXTRA      more `schemathesis run` flags, e.g. "--output-sanitize false" to see the values
#   SCHEMATHESIS_NO_HOOKS   1: one phase instead of the two below, every operation with user A's token and no
#                           hooks (`logout` and `revokeSession` then end that token, so later cases see 401)
#   SCHEMATHESIS_SETTINGS   the settings file (default: scripts/schemathesis.toml; a relative path is from the
#                           repository's root); `none` for schemathesis's own defaults, under which the three
#                           browser sign-in operations are reported (ST202, 400 to a schema-valid request): what
#                           they accept depends on the deployment (providers, redirect URIs, live flows, issued
#                           codes), which no schema can state; the settings file says 400 is expected there
#
# The server runs from the given binary on a free loopback port with a temporary database and configuration:
# cheap Argon2id parameters (so hundreds of registrations and logins stay fast), a stream key (so
# /stream-token issues tokens), a fake Moss upstream on loopback (so /moss-token answers 200), and the rate
# limits at their maxima (1,000,000 token-issuing requests per address per minute, 1000 failed logins per
# account): schemathesis sends all of its requests from 127.0.0.1, and a 429 would hide the answers under test.
# The `apple` and `google` identity providers of openapi.yaml's enum are configured with a key URL nobody answers
# (port 9): generated ID tokens are refused (401) or, should one parse, find no keys (503). A `github` browser
# provider (explicit endpoints: no network at start) lets GET /auth/oauth/{provider} redirect. Email goes to the
# `file` transport in the temporary folder, sign-in codes are on, and the per-address send limits are at their maxima
# (a 429 would hide the answers under test; the scripted check and the Swift tests cover the limits).
#
# Two phases per seed, because logging out or revoking a session would revoke the token the other operations
# are tested with:
#   1. every operation except `logout` and `revokeSession`, with `-H "Authorization: Bearer $ACCESS"` of user A
#      (registered and logged in here); afterwards $ACCESS must still work, else the run proved nothing;
#   2. `logout`, `revokeSession` and `listSessions` (whose ids feed revokeSession in the stateful phase), where
#      scripts/schemathesis_hooks.py logs user B in afresh for every generated case.
# Installs schemathesis 4 with pip when it is missing; needs curl (installed when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

scripts/ensure-system-packages.sh curl
if ! python3 -c 'import schemathesis, sys; sys.exit(0 if schemathesis.__version__.startswith("4.") else 1)' 2>/dev/null
then
    echo "installing schemathesis 4 (pip install 'schemathesis>=4,<5')" >&2
    python3 -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5' >&2
fi
if [[ -z "${TOKENVEND_BIN:-}" ]]; then
    swift build --product tokenvend >/dev/null
    TOKENVEND_BIN="$(swift build --show-bin-path)/tokenvend"
fi
BIN="$(realpath "$TOKENVEND_BIN")"
SEEDS=("$@")
if [[ ${#SEEDS[@]} -eq 0 ]]; then read -r -a SEEDS <<<"${SCHEMATHESIS_SEEDS:-1}"; fi
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-40}"
SETTINGS=(--config-file "$(realpath "${SCHEMATHESIS_SETTINGS:-scripts/schemathesis.toml}")")
if [[ "${SCHEMATHESIS_SETTINGS:-}" == none ]]; then SETTINGS=(); fi
TIMEOUT="${SCHEMATHESIS_TIMEOUT:-120}"

WORK="$(mktemp -d)"
SERVER_PID=""
MOSS_PID=""
ST_PID=""
# Stops what this script started (schemathesis, the server, the fake Moss), on every way out.
stop() {
    local pid
    for pid in "$ST_PID" "$SERVER_PID" "$MOSS_PID"; do
        if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    ST_PID=""
    SERVER_PID=""
    MOSS_PID=""
}
trap 'stop; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
# schemathesis writes nothing outside the temporary folder (with --generation-database none, nothing at all).
cd "$WORK"

# The fake Moss upstream of scripts/fake_moss.py: it writes its port once listening.
python3 "$ROOT/scripts/fake_moss.py" "$WORK/moss.port" >"$WORK/moss.log" 2>&1 &
MOSS_PID=$!
for _ in $(seq 1 100); do [[ -s "$WORK/moss.port" ]] && break; sleep 0.05; done
[[ -s "$WORK/moss.port" ]] || { echo "check-schemathesis: the fake Moss upstream did not start" >&2; cat "$WORK/moss.log" >&2; exit 1; }
MOSS_PORT="$(cat "$WORK/moss.port")"

STREAM_SECRET="schemathesis-check-stream-secret-schemathesis-check-stream-secret-0123456789"
PASSWORD_A="schemathesis user A: a long passphrase 7301"
PASSWORD_B="schemathesis user B: a long passphrase 9402"
BASE=""

# Starts the server on a free port with a fresh database; sets BASE and SERVER_PID.
start_server() {
    local port config
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    rm -rf "$WORK/data"
    config="$WORK/tokenvend.json"
    cat >"$config" <<JSON
{
  "server": {"host": "127.0.0.1", "port": $port, "publicURL": "http://127.0.0.1:$port"},
  "database": {"path": "$WORK/data/tokenvend.sqlite"},
  "password": {"timeCost": 1, "memoryCost": 8192},
  "rateLimit": {"loginFailuresPerAccount": 1000, "idTokenFailuresPerAddress": 1000000,
                "requestsPerAddressPerMinute": 1000000},
  "identity": {"maxPendingFlowsPerAddress": 100000},
  "email": {"transport": "file", "fileDirectory": "$WORK/outbox", "signInCodes": true,
            "sendsPerAddressPerMinute": 1000, "sendsPerAddressPerHour": 100000},
  "moss": {"projectId": "schemathesis", "projectKey": "schemathesis-project-key",
           "authURL": "http://127.0.0.1:$MOSS_PORT/identity/auth/token"},
  "stream": {"keys": [{"kid": "schemathesis", "secret": "$STREAM_SECRET"}]},
  "identityProviders": {
    "apple": {"preset": "apple", "audiences": ["com.example.schemathesis"], "jwksURL": "http://127.0.0.1:9/keys"},
    "google": {"preset": "google", "audiences": ["schemathesis.apps.googleusercontent.com"],
               "jwksURL": "http://127.0.0.1:9/keys"},
    "github": {"preset": "github", "clientId": "schemathesis-client", "clientSecret": "schemathesis-client-secret",
               "redirectURIs": ["com.example.schemathesis:/oauth", "http://127.0.0.1/cb"]}
  },
  "passkeys": {"rpId": "example.com", "appleAppIds": ["ABCDE12345.com.example.schemathesis"],
               "androidApps": [{"package": "com.example.schemathesis",
                                "sha256CertFingerprints": ["$(python3 -c 'print(":".join(["AB"] * 32))')"]}]},
  "log": {"level": "warning"}
}
JSON
    # Only this configuration: an inherited TOKENVEND_* variable (such as TOKENVEND_BIN) is not a server key.
    env -i PATH="$PATH" HOME="$WORK" "$BIN" serve --config "$config" >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    BASE="http://127.0.0.1:$port"
    for _ in $(seq 1 200); do
        curl -fs "$BASE/healthz" >/dev/null 2>&1 && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.05
    done
    echo "check-schemathesis: the server did not start; its log:" >&2
    cat "$WORK/server.log" >&2
    return 1
}

json_request() {  # METHOD PATH BODY → prints the answer body; fails, saying why, on a non-2xx status
    local answer status
    answer="$(curl -sS -w '\n%{http_code}' -X "$1" -H 'Content-Type: application/json' \
        -H 'X-Auth-Strategy: bearer' -d "$3" "$BASE$2")"
    status="${answer##*$'\n'}"
    if [[ "$status" != 2* ]]; then
        echo "check-schemathesis: $1 $2 answered $status: ${answer%$'\n'*}" >&2
        return 1
    fi
    printf '%s\n' "${answer%$'\n'*}"
}

credentials() { printf '{"email": "%s", "password": "%s"}' "$1" "$2"; }

# Runs one schemathesis phase in the background and waits for it, so INT/TERM reach the trap at once.
# Counts a failure on any finding or on the timeout.
run_phase() {  # SEED NAME ARGS…
    local seed="$1" name="$2" status=0
    shift 2
    echo "check-schemathesis: seed $seed, $name" >&2
    timeout --kill-after=5 "$TIMEOUT" schemathesis "${SETTINGS[@]}" run "$ROOT/docs/openapi.yaml" "$@" &
    ST_PID=$!
    wait "$ST_PID" || status=$?
    ST_PID=""
    if [[ $status -ne 0 ]]; then
        if [[ $status -eq 124 || $status -eq 137 ]]; then
            echo "check-schemathesis: seed $seed, $name: killed after ${TIMEOUT}s" >&2
        fi
        failures=$((failures + 1))
    fi
}

# Counts a failure when the server exited during the run (its log then shows why), and stops it.
stop_server() {
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        echo "check-schemathesis: seed $seed: the server exited; its log:" >&2
        cat "$WORK/server.log" >&2
        failures=$((failures + 1))
    fi
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

failures=0
for seed in "${SEEDS[@]}"; do
    start_server
    json_request POST /auth/register "$(credentials a@schemathesis.example "$PASSWORD_A")" >/dev/null
    json_request POST /auth/register "$(credentials b@schemathesis.example "$PASSWORD_B")" >/dev/null
    ACCESS="$(json_request POST /auth/login "$(credentials a@schemathesis.example "$PASSWORD_A")" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["accessToken"])')"
    common=(--url "$BASE" --checks all --max-examples "$EXAMPLES" --seed "$seed" --generation-database none
        --request-timeout 10 --no-color ${SCHEMATHESIS_EXTRA:-})

    if [[ "${SCHEMATHESIS_NO_HOOKS:-}" == 1 ]]; then
        run_phase "$seed" "every operation, user A, no hooks" "${common[@]}" -H "Authorization: Bearer $ACCESS"
        stop_server
        continue
    fi
    run_phase "$seed" "phase 1 (every operation but logout and revokeSession, user A)" "${common[@]}" \
        --exclude-operation-id logout --exclude-operation-id revokeSession -H "Authorization: Bearer $ACCESS"
    if ! curl -fs -o /dev/null -H "Authorization: Bearer $ACCESS" "$BASE/auth/me"; then
        echo "check-schemathesis: seed $seed: user A's access token stopped working during phase 1" >&2
        failures=$((failures + 1))
    fi

    TOKENVEND_ST_BASE="$BASE" TOKENVEND_ST_EMAIL=b@schemathesis.example TOKENVEND_ST_PASSWORD="$PASSWORD_B" \
        PYTHONPATH="$ROOT/scripts" SCHEMATHESIS_HOOKS=schemathesis_hooks \
        run_phase "$seed" "phase 2 (logout, listSessions, revokeSession; a new session of user B per case)" \
        "${common[@]}" --include-operation-id logout --include-operation-id revokeSession \
        --include-operation-id listSessions
    stop_server
done
echo "check-schemathesis: seeds ${SEEDS[*]}: $failures failed phases" >&2
[[ $failures -eq 0 ]]
