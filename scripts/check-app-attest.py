#!/usr/bin/env python3
"""Checks that scripts/fake_app_attest.py makes attestations an independent verifier accepts: PyPI pyattest
(its own CBOR, ASN.1 and certificate-path code) verifies one against the fake's root, and refuses the `tamper`
cases it checks. So tokenvend's AppAttestVerifier is tested against objects that are right by someone else's
reading of Apple's "Validating apps that connect to your server", not only its own. pyattest does not check an
assertion's counter or app id, so only attestations are compared here. Exits non-zero on any failure.

    python3 scripts/check-app-attest.py

Installs cryptography, cbor2 and pyattest when missing (scripts/ensure-python-packages.sh --checks does it first
in `make test`).
"""

import asyncio
import hashlib
import os
import subprocess
import sys

try:
    import cbor2  # noqa: F401
    import pyattest  # noqa: F401
except ImportError:
    print("installing cbor2 and pyattest (pip install cbor2 pyattest)", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "cbor2",
                    "pyattest"], check=True, stdout=sys.stderr)

from pyattest.attestation import Attestation  # noqa: E402
from pyattest.configs.apple import AppleConfig  # noqa: E402
from pyattest.exceptions import PyAttestException  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_app_attest import FakeAppAttest  # noqa: E402

APP_ID = "ABCDE12345.com.example.tokenvend"


def verify(fake, challenge, tamper=None, app_id=APP_ID):
    key_id, attestation, _ = fake.attest(APP_ID, hashlib.sha256(challenge).digest(), tamper=tamper)
    config = AppleConfig(key_id=key_id, app_id=app_id, production=True, root_ca=fake.root_pem().encode())
    asyncio.run(Attestation(attestation, challenge, config).verify())


def main():
    fake = FakeAppAttest()
    challenge = b"pyattest-challenge"
    failures = []
    try:
        verify(fake, challenge)
        print("pyattest accepts the fake's attestation")
    except PyAttestException as error:
        failures.append(f"a valid attestation was refused: {type(error).__name__} {error}")
    for tamper in ["nonce", "key_id", "counter", "aaguid", "other_root", "expired"]:
        try:
            verify(fake, challenge, tamper=tamper)
            failures.append(f"tamper {tamper}: pyattest accepted it")
        except PyAttestException as error:
            print(f"pyattest refuses tamper {tamper}: {type(error).__name__}")
    try:
        verify(fake, challenge, app_id="ABCDE12345.com.example.other")
        failures.append("another app id: pyattest accepted it")
    except PyAttestException as error:
        print(f"pyattest refuses another app id: {type(error).__name__}")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
