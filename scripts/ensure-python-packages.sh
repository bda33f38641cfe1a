#!/usr/bin/env bash
# Installs the Python packages the Swift tests start as child processes, only when missing: aiosmtpd for the SMTP
# sink (scripts/smtp_sink.py, started by Tests/MailTesting/SMTPSink.swift), PyJWT and cryptography for the fake
# Sign in with Apple (scripts/fake_apple.py, started by Tests/IdentityProvidersTesting/FakeApple.swift), cbor2 for
# the fake App Attest (scripts/fake_app_attest.py, started by Tests/AppIntegrityTesting/FakeAppAttest.swift), joserfc
# for the fake Play Integrity and App Check (scripts/fake_play_integrity.py, Tests/AppIntegrityTesting/
# FakePlayIntegrity.swift), webauthn (py_webauthn 3.x) checking the software authenticator's passkeys
# (scripts/passkey_authenticator.py, Tests/TokenServiceTesting/PasskeyAuthenticator.swift). With
# `--checks`, also every package of the checks `make test` runs afterwards, two at a time (schemathesis, joserfc,
# pyattest, the vendor SDKs, Selenium, Authlib and Flask), in one pip call first, so that the concurrent checks never
# run pip at the same time (each script still installs what it misses when run alone). Safe to run repeatedly; `make test`
# runs it before `swift test`. Debian's python3-aiosmtpd works too when it is the python3 on PATH.
set -euo pipefail

if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
    echo "installing aiosmtpd (pip install aiosmtpd)" >&2
    python3 -m pip install --quiet --disable-pip-version-check aiosmtpd >&2
fi

if ! python3 -c 'import jwt, cryptography' 2>/dev/null; then
    echo "installing PyJWT and cryptography (pip install PyJWT cryptography)" >&2
    python3 -m pip install --quiet --disable-pip-version-check PyJWT cryptography >&2
fi

if ! python3 -c 'import cbor2' 2>/dev/null; then
    echo "installing cbor2 (pip install cbor2)" >&2
    python3 -m pip install --quiet --disable-pip-version-check cbor2 >&2
fi

if ! python3 -c 'import webauthn, sys; sys.exit(0 if webauthn.__version__.startswith("3.") else 1)' 2>/dev/null; then
    echo "installing webauthn 3.x (pip install 'webauthn>=3,<4')" >&2
    python3 -m pip install --quiet --disable-pip-version-check 'webauthn>=3,<4' >&2
fi

if ! python3 -c 'import joserfc' 2>/dev/null; then
    echo "installing joserfc (pip install joserfc)" >&2
    python3 -m pip install --quiet --disable-pip-version-check joserfc >&2
fi

if [ "${1:-}" = "--checks" ]; then
    missing=()
    python3 -c 'import schemathesis, sys; sys.exit(0 if schemathesis.__version__.startswith("4.") else 1)' \
        2>/dev/null || missing+=('schemathesis>=4,<5')
    python3 -c 'import joserfc' 2>/dev/null || missing+=(joserfc)
    python3 -c 'import cbor2, pyattest' 2>/dev/null || missing+=(cbor2 pyattest)
    python3 -c 'import jwt.algorithms; jwt.algorithms.ECAlgorithm' 2>/dev/null || missing+=('pyjwt[crypto]')
    python3 -c 'import livekit.api' 2>/dev/null || missing+=(livekit-api)
    python3 -c 'import stream_chat' 2>/dev/null || missing+=(stream-chat)
    python3 -c 'import twilio.jwt.access_token' 2>/dev/null || missing+=(twilio)
    python3 -c 'import authlib, flask, selenium' 2>/dev/null || missing+=(authlib flask selenium)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "installing ${missing[*]} (pip install ${missing[*]})" >&2
        python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}" >&2
    fi
fi
