#!/usr/bin/env bash
# Installs the Debian packages tokenvend builds against, only when a header or pkg-config file is missing.
# Safe to run repeatedly; used by `make run`, `make test` and .ci/run.
set -euo pipefail

missing=()
pkg-config --exists libcrypto 2>/dev/null || missing+=(libssl-dev)
pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libcurl 2>/dev/null || missing+=(libcurl4-openssl-dev)
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
# libunistring has no pkg-config file: its normalisation header stands for it (UnicodeText's NFC and NFKC).
[ -f /usr/include/uninorm.h ] || missing+=(libunistring-dev)
# The PostgreSQL server binaries (initdb, pg_ctl, pgbench) for scripts/with-postgres.sh; Debian puts them in
# `pg_config --bindir`, not on PATH.
{ command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; } || missing+=(postgresql)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "installing system packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
