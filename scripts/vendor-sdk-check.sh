#!/usr/bin/env bash
# Tokens vended by POST /vend/{vendor} checked by the vendors' own Python SDKs against a running `tokenvend serve`
# (scripts/vendor-sdk-check.py): LiveKit's TokenVerifier and AccessToken (livekit-api), Stream Chat's create_token
# (stream-chat), Twilio's AccessToken and Jwt.from_jwt (twilio), the Bloomreach customer token and /stream-token
# with PyJWT, as ok/FAIL lines.
#
# Usage: scripts/vendor-sdk-check.sh        (builds the debug `tokenvend` unless TOKENVEND_BIN is set)
# Installs with pip only what is missing: livekit-api, stream-chat, twilio, pyjwt. Exits 0 when every check passes,
# 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
python3 -c 'import livekit.api' 2>/dev/null || missing+=(livekit-api)
python3 -c 'import stream_chat' 2>/dev/null || missing+=(stream-chat)
python3 -c 'import twilio.jwt.access_token' 2>/dev/null || missing+=(twilio)
python3 -c 'import jwt' 2>/dev/null || missing+=(pyjwt)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} (pip install ${missing[*]})" >&2
    python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}" >&2
fi
if [[ -z "${TOKENVEND_BIN:-}" ]]; then
    swift build --product tokenvend >/dev/null
    TOKENVEND_BIN="$(swift build --show-bin-path)/tokenvend"
fi
exec python3 scripts/vendor-sdk-check.py "$TOKENVEND_BIN"
