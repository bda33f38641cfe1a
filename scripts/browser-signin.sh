#!/usr/bin/env bash
# The browser sign-in (GET /auth/oauth/{provider} … POST /auth/token) in headless Chromium driven by Selenium,
# against a real `tokenvend serve` and an OpenID Connect provider built with Authlib (scripts/browser-signin.py,
# scripts/fake_oidc_provider.py): the happy path and every failure path, as ok/FAIL lines. Then the account-deletion
# page (GET /account/delete) with JavaScript disabled (scripts/browser-account-delete.py).
#
# Usage: scripts/browser-signin.sh          (builds the debug `tokenvend` unless TOKENVEND_BIN is set)
# Installs what is missing: Debian's chromium and chromium-driver with apt-get; authlib, flask and selenium with
# pip. Exits 0 when every check passes, 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian names chromedriver's package chromium-driver, so this is its own apt step, like
# scripts/ensure-system-packages.sh's.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing system packages: ${missing[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! python3 -c 'import authlib, flask, selenium, joserfc' 2>/dev/null; then
    echo "installing authlib, flask and selenium (pip install authlib flask selenium)" >&2
    python3 -m pip install --quiet --disable-pip-version-check authlib flask selenium >&2
fi
if [[ -z "${TOKENVEND_BIN:-}" ]]; then
    swift build --product tokenvend >/dev/null
    TOKENVEND_BIN="$(swift build --show-bin-path)/tokenvend"
fi
status=0
python3 scripts/browser-signin.py "$TOKENVEND_BIN" || status=1
python3 scripts/browser-account-delete.py "$TOKENVEND_BIN" || status=1
exit $status
