#!/usr/bin/env bash
# Installs the Python packages the Swift tests start as child processes, only when missing: aiosmtpd for the SMTP
# sink (scripts/smtp_sink.py, started by Tests/MailTesting/SMTPSink.swift), PyJWT and cryptography for the fake
# Sign in with Apple (scripts/fake_apple.py, started by Tests/IdentityProvidersTesting/FakeApple.swift). Safe to run
# repeatedly; `make test` runs it before `swift test`. Debian's python3-aiosmtpd works too when it is the python3 on PATH.
set -euo pipefail

if ! python3 -c 'import aiosmtpd' 2>/dev/null; then
    echo "installing aiosmtpd (pip install aiosmtpd)" >&2
    python3 -m pip install --quiet --disable-pip-version-check aiosmtpd >&2
fi

if ! python3 -c 'import jwt, cryptography' 2>/dev/null; then
    echo "installing PyJWT and cryptography (pip install PyJWT cryptography)" >&2
    python3 -m pip install --quiet --disable-pip-version-check PyJWT cryptography >&2
fi
