#!/usr/bin/env python3
"""Software passkey authenticators (scripts/soft_authenticator.py) for tokenvend's end-to-end tests, on loopback;
every registration and assertion is also checked by py_webauthn (PyPI `webauthn` 3.x), a WebAuthn library nobody
here wrote.

    passkey_authenticator.py [--port 0]

Prints `PORT <n>` on stdout once listening; exits when its parent process ends.

Endpoints (JSON in and out):
- `POST /device {"counterMode"?: "increment" | "zero", "backupEligible"?, "backedUp"?}` -> `{"deviceId"}`: a new
  authenticator (its credentials are discoverable and kept in the process). Device `d0` exists from the start
  (counters increment, BE and BS clear).
- `POST /create {"deviceId"?, "options", "origin", "knobs"?, "expectedOrigins"?}` -> `{"credential",
  "credentialId", "expectedValid", "pyWebauthn": {"accepted", "detail"}}`: a registration (RegistrationResponseJSON)
  for creation options `options` (PublicKeyCredentialCreationOptionsJSON) made at `origin`, broken by `knobs`
  (soft_authenticator's REGISTRATION_KNOBS).
- `POST /get {"deviceId"?, "options", "origin", "knobs"?, "expectedOrigins"?}` -> `{"credential", "credentialId",
  "expectedValid", "pyWebauthn"}`: an assertion (AuthenticationResponseJSON) for request options `options`, by the
  credential `knobs.credential_id` or else the device's newest for the RP id.
- `POST /android-origin {"fingerprint"}` -> `{"origin"}`: `android:apk-key-hash:` + base64url(SHA-256
  fingerprint), computed here rather than by tokenvend.

py_webauthn checks every answer with the options' challenge and RP id, `expectedOrigins` (default: `[origin]`),
user verification as the options ask, ES256/EdDSA/RS256 only, and (for assertions) the public key and the counter
of the credential's last accepted ceremony. `expectedValid` is true when no knob breaks the ceremony and the origin
is expected; then a refusal by py_webauthn answers 400 (the test fails loudly: the authenticator is wrong). When a
knob breaks it, py_webauthn's verdict is only reported (`pyWebauthn.accepted` false means it refused too).

Started by Tests/TokenServiceTesting/PasskeyAuthenticator.swift. scripts/ensure-python-packages.sh installs
cryptography, cbor2 and webauthn.
"""

import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import loopback_fake  # noqa: E402
import soft_authenticator as sa  # noqa: E402

try:
    from webauthn import verify_authentication_response, verify_registration_response
    from webauthn.helpers.structs import COSEAlgorithmIdentifier
except ImportError:
    print("webauthn (py_webauthn 3.x) is missing: run scripts/ensure-python-packages.sh (make test does)",
          file=sys.stderr)
    sys.exit(3)

ALLOWED_ALGORITHMS = [COSEAlgorithmIdentifier(sa.ES256), COSEAlgorithmIdentifier(sa.EDDSA),
                      COSEAlgorithmIdentifier(sa.RS256)]
# Knobs that vary a ceremony without breaking it (any other knob breaks it).
BENIGN_REGISTRATION_KNOBS = {"alg", "rsa_bits", "fmt", "transports", "be", "bs", "android_package_name", "counter",
                             "reuse_credential", "credential_id_length"}
BENIGN_AUTHENTICATION_KNOBS = {"be", "bs", "android_package_name", "counter", "credential_id"}


def registration_breaks(knobs):
    """Whether `knobs` make a registration that a relying party must refuse."""
    if set(knobs) - BENIGN_REGISTRATION_KNOBS:
        return True
    if knobs.get("alg", sa.ES256) not in (sa.ES256, sa.EDDSA, sa.RS256) or knobs.get("rsa_bits", 2048) < 2048:
        return True
    return not 1 <= knobs.get("credential_id_length", 32) <= 1023


class Devices:
    """The authenticators by id, and what a relying party would have stored per credential (key, counter)."""

    def __init__(self):
        self.devices = {"d0": sa.SoftAuthenticator()}
        self.stored = {}  # credential id (base64url) -> (COSE public key, sign count) after accepted ceremonies
        self.lock = threading.Lock()

    def new(self, body):
        device = sa.SoftAuthenticator(counter_mode=body.get("counterMode", "increment"),
                                      backup_eligible=bool(body.get("backupEligible", False)),
                                      backed_up=bool(body.get("backedUp", False)))
        with self.lock:
            device_id = f"d{len(self.devices)}"
            self.devices[device_id] = device
        return {"deviceId": device_id}

    def device(self, body):
        with self.lock:
            return self.devices[body.get("deviceId", "d0")]

    def create(self, body):
        options, origin, knobs = body["options"], body["origin"], dict(body.get("knobs") or {})
        expected_origins = body.get("expectedOrigins") or [origin]
        credential, kept = self.device(body).create(options, origin, **knobs)
        expected_valid = not registration_breaks(knobs) and origin in expected_origins
        if knobs.get("bs", kept.backed_up) and not knobs.get("be", kept.backup_eligible):
            expected_valid = False  # BS without BE
        required = (options.get("authenticatorSelection") or {}).get("userVerification") == "required"
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=sa.b64url_decode(options["challenge"]),
                expected_rp_id=options["rp"]["id"], expected_origin=expected_origins,
                require_user_verification=required, supported_pub_key_algs=ALLOWED_ALGORITHMS)
            verdict = {"accepted": True, "detail": f"fmt {verified.fmt}, {verified.credential_device_type}, "
                                                   f"backed up {verified.credential_backed_up}"}
            if expected_valid:
                with self.lock:
                    self.stored[kept.id] = (verified.credential_public_key, verified.sign_count)
        except Exception as error:  # py_webauthn's refusals: InvalidRegistrationResponse, InvalidBackupFlags, …
            verdict = {"accepted": False, "detail": f"{type(error).__name__}: {error}"}
            if expected_valid:
                raise ValueError(f"py_webauthn refused a registration meant to be valid: {verdict['detail']}")
        return {"credential": credential, "credentialId": kept.id, "expectedValid": expected_valid,
                "pyWebauthn": verdict}

    def get(self, body):
        options, origin, knobs = body["options"], body["origin"], dict(body.get("knobs") or {})
        expected_origins = body.get("expectedOrigins") or [origin]
        device = self.device(body)
        credential = device.get(options, origin, **knobs)
        kept = device.credential(credential["rawId"])
        with self.lock:
            stored = self.stored.get(kept.id)
        expected_valid = (stored is not None and not set(knobs) - BENIGN_AUTHENTICATION_KNOBS
                          and origin in expected_origins
                          and not (knobs.get("bs", kept.backed_up) and not knobs.get("be", kept.backup_eligible)))
        if expected_valid and "counter" in knobs:
            new, old = kept.counter, stored[1]
            expected_valid = (new == 0 and old == 0) or new > old
        if stored is None:
            return {"credential": credential, "credentialId": kept.id, "expectedValid": False,
                    "pyWebauthn": {"accepted": False, "detail": "no registration of this credential was accepted"}}
        try:
            verified = verify_authentication_response(
                credential=credential, expected_challenge=sa.b64url_decode(options["challenge"]),
                expected_rp_id=options["rpId"], expected_origin=expected_origins, credential_public_key=stored[0],
                credential_current_sign_count=stored[1],
                require_user_verification=options.get("userVerification") == "required")
            verdict = {"accepted": True, "detail": f"sign count {verified.new_sign_count}, "
                                                   f"{verified.credential_device_type}"}
            if expected_valid:
                with self.lock:
                    self.stored[kept.id] = (stored[0], verified.new_sign_count)
        except Exception as error:
            verdict = {"accepted": False, "detail": f"{type(error).__name__}: {error}"}
            if expected_valid:
                raise ValueError(f"py_webauthn refused an assertion meant to be valid: {verdict['detail']}")
        return {"credential": credential, "credentialId": kept.id, "expectedValid": expected_valid,
                "pyWebauthn": verdict}


def routes(devices):
    """The `POST` routes for loopback_fake.json_handler."""

    def create(body):
        try:
            return devices.create(body)
        except sa.ExcludedCredential as error:
            raise ValueError(f"excludeCredentials names {error}, a credential this device holds")

    def get(body):
        try:
            return devices.get(body)
        except sa.NoCredential as error:
            raise ValueError(f"no credential for RP id {error} on this device")

    def android_origin(body):
        return {"origin": sa.apk_key_hash_origin(body["fingerprint"])}

    return {}, {"/device": devices.new, "/create": create, "/get": get, "/android-origin": android_origin}


def main():
    arguments = loopback_fake.argument_parser("software passkey authenticators checked by py_webauthn").parse_args()
    loopback_fake.serve(loopback_fake.json_handler(*routes(Devices())), arguments)


if __name__ == "__main__":
    main()
