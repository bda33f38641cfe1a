#!/usr/bin/env python3
"""Writes Tests/WebAuthnTests/Resources/webauthn-vectors.json: registrations and assertions made by the tests
helper's software authenticator (scripts/soft_authenticator.py, cryptography + cbor2), every valid one also verified
by py_webauthn (`verify_registration_response` / `verify_authentication_response`), and one broken on purpose for each
PasskeyCheckFailure plus the malformed inputs (400). Keys, credential ids and ECDSA nonces come from fixed seeds, so
the file is the same on every run.

    python3 scripts/generate-webauthn-vectors.py        # needs cryptography >= 43, cbor2, webauthn 3.x
"""

import hashlib
import json
import os
import random
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soft_authenticator as sa  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa  # noqa: E402
from webauthn import verify_authentication_response, verify_registration_response  # noqa: E402
from webauthn.helpers.structs import COSEAlgorithmIdentifier  # noqa: E402

RP_ID = "example.com"
ORIGIN = "https://example.com"
FINGERPRINT = ":".join(f"{b:02X}" for b in hashlib.sha256(b"tokenvend test signing certificate").digest())
ANDROID_ORIGIN = sa.apk_key_hash_origin(FINGERPRINT)
USER_HANDLE = bytes(range(32))
OTHER_HANDLE = bytes(range(32, 64))
ALGS = [COSEAlgorithmIdentifier.ECDSA_SHA_256, COSEAlgorithmIdentifier.EDDSA,
        COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256]

# --- determinism: every random choice of the module comes from one seeded generator ---------------------------------
SEEDED = random.Random(36)
sa.os = types.SimpleNamespace(urandom=lambda n: SEEDED.randbytes(n))


def _probable_prime(bits):
    while True:
        candidate = SEEDED.getrandbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if all(candidate % p for p in (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)) and _miller_rabin(candidate):
            return candidate


def _miller_rabin(n, rounds=40):
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _ in range(rounds):
        x = pow(SEEDED.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _seeded_rsa(bits):
    e = 65537
    while True:
        p, q = _probable_prime(bits // 2), _probable_prime(bits // 2)
        phi = (p - 1) * (q - 1)
        if p != q and phi % e and (p * q).bit_length() == bits:
            break
    d = pow(e, -1, phi)
    numbers = rsa.RSAPrivateNumbers(p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
                                    rsa.RSAPublicNumbers(e, p * q))
    return numbers.private_key()


def _seeded_key(alg, rsa_bits=2048):
    seed = SEEDED.randbytes(32)
    if alg == sa.ES256:
        return ec.derive_private_key(int.from_bytes(seed, "big") % (2**255) + 1, ec.SECP256R1())
    if alg == sa.ES384:
        return ec.derive_private_key(int.from_bytes(seed, "big") + 1, ec.SECP384R1())
    if alg == sa.EDDSA:
        return ed25519.Ed25519PrivateKey.from_private_bytes(seed)
    return _seeded_rsa(rsa_bits)


sa.new_private_key = _seeded_key
_sign = sa.Credential.sign


def _deterministic_sign(self, data):
    """RFC 6979 nonces for ECDSA, so signatures do not change between runs."""
    if self.alg == sa.ES256:
        return self.private_key.sign(data, ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    return _sign(self, data)


sa.Credential.sign = _deterministic_sign


# --- the vectors ----------------------------------------------------------------------------------------------------
def challenge(label):
    return hashlib.sha256(label.encode()).digest()


def creation_options(name):
    return {"challenge": sa.b64url(challenge(name)), "rp": {"id": RP_ID, "name": "Example"},
            "user": {"id": sa.b64url(USER_HANDLE), "name": "user@example.com", "displayName": "user@example.com"},
            "excludeCredentials": []}


def request_options(name):
    return {"challenge": sa.b64url(challenge(name)), "rpId": RP_ID, "allowCredentials": []}


vectors = []


def registration(name, failure=None, bad_input=False, origin=ORIGIN, authenticator=None, **knobs):
    authenticator = authenticator or sa.SoftAuthenticator(backup_eligible=True, backed_up=True)
    response, credential = authenticator.create(creation_options(name), origin, **knobs)
    vector = {"name": name, "ceremony": "registration", "challenge": sa.b64url(challenge(name)),
              "credential": response, "failure": failure, "malformed": bad_input}
    if failure is None and not bad_input:
        verified = verify_registration_response(
            credential=response, expected_challenge=challenge(name), expected_rp_id=RP_ID,
            expected_origin=[ORIGIN, ANDROID_ORIGIN], require_user_verification=True, supported_pub_key_algs=ALGS)
        vector["expect"] = {
            "credentialId": sa.b64url(verified.credential_id), "publicKey": sa.b64url(verified.credential_public_key),
            "algorithm": credential.alg, "signCount": verified.sign_count,
            "backupEligible": str(getattr(verified.credential_device_type, "value", verified.credential_device_type)) == "multi_device", "backedUp": verified.credential_backed_up,
            "userVerified": verified.user_verified, "attestationFormat": str(getattr(verified.fmt, "value", verified.fmt)), "aaguid": verified.aaguid}
    vectors.append(vector)
    return credential


def authentication(name, credential, authenticator, failure=None, bad_input=False, origin=ORIGIN, stored_count=None,
                   stored_backup_eligible=None, **knobs):
    stored = credential.counter if stored_count is None else stored_count
    response = authenticator.get(request_options(name), origin, credential_id=credential.id, **knobs)
    vector = {"name": name, "ceremony": "authentication", "challenge": sa.b64url(challenge(name)),
              "credential": response, "publicKey": sa.b64url(credential.cose_key()), "storedSignCount": stored,
              "userHandle": sa.b64url(credential.user_handle), "failure": failure, "malformed": bad_input}
    if stored_backup_eligible is not None:
        vector["storedBackupEligible"] = stored_backup_eligible
    if failure is None and not bad_input:
        verified = verify_authentication_response(
            credential=response, expected_challenge=challenge(name), expected_rp_id=RP_ID,
            expected_origin=[ORIGIN, ANDROID_ORIGIN], credential_public_key=credential.cose_key(),
            credential_current_sign_count=stored, require_user_verification=True)
        vector["expect"] = {"signCount": verified.new_sign_count, "userVerified": verified.user_verified,
                            "backedUp": verified.credential_backed_up}
    vectors.append(vector)


def main():
    # Valid registrations and assertions, each checked by py_webauthn.
    for alg, label in ((sa.ES256, "es256"), (sa.EDDSA, "eddsa"), (sa.RS256, "rs256")):
        authenticator = sa.SoftAuthenticator(backup_eligible=True, backed_up=True)
        credential = registration(f"register {label}", authenticator=authenticator, alg=alg)
        authentication(f"sign in {label}", credential, authenticator)
    synced = sa.SoftAuthenticator(counter_mode="zero", backup_eligible=True, backed_up=True)
    credential = registration("register synced passkey (counter 0)", authenticator=synced)
    authentication("sign in synced passkey (counter 0 twice)", credential, synced)
    android = sa.SoftAuthenticator()
    credential = registration("register android app", authenticator=android, origin=ANDROID_ORIGIN,
                              android_package_name="com.example.app")
    authentication("sign in android app", credential, android, origin=ANDROID_ORIGIN,
                   android_package_name="com.example.app")
    registration("register with packed self-attestation (accepted as none)", fmt="packed")

    # One broken registration for each registration check.
    registration("registration type webauthn.get", "type", type="webauthn.get")
    registration("registration foreign challenge", "challenge", challenge=sa.b64url(challenge("another ceremony")))
    registration("registration wrong origin", "origin", origin="https://evil.example")
    registration("registration cross origin", "cross_origin", cross_origin=True)
    registration("registration top origin", "cross_origin", top_origin="https://other.example")
    registration("registration wrong rp id", "rp_id", rp_id="evil.example")
    registration("registration without UP", "user_presence", up=False)
    registration("registration without UV", "user_verification", uv=False)
    registration("registration BS without BE", "backup_state", be=False, bs=True)
    registration("registration without attested credential data", "attested_credential", no_attested_data=True)
    registration("registration ES384", "algorithm", alg=sa.ES384)
    registration("registration alg disagreeing with the key", "algorithm", cose_alg=sa.EDDSA)
    registration("registration P-256 point off the curve", "public_key", off_curve=True)
    registration("registration Ed25519 key of 31 bytes", "public_key", alg=sa.EDDSA, short_ed25519=True)
    registration("registration RSA-1024", "public_key", alg=sa.RS256, rsa_bits=1024)
    registration("registration credential id of 1024 bytes", "credential_id", credential_id_length=1024)
    registration("registration id naming another credential", "credential_mismatch", id_mismatch=True)
    for malformation in sorted(sa.REGISTRATION_MALFORMATIONS):
        registration(f"registration malformed {malformation}", bad_input=True, malformed=malformation)

    # One broken assertion for each authentication check (the credential is registered first, counter 0).
    authenticator = sa.SoftAuthenticator(backup_eligible=True, backed_up=True)
    credential = registration("register for the broken assertions", authenticator=authenticator)
    broken = [
        ("assertion type webauthn.create", "type", {"type": "webauthn.create"}),
        ("assertion foreign challenge", "challenge", {"challenge": sa.b64url(challenge("another ceremony"))}),
        ("assertion cross origin", "cross_origin", {"cross_origin": True}),
        ("assertion wrong rp id", "rp_id", {"rp_id": "evil.example"}),
        ("assertion without UP", "user_presence", {"up": False}),
        ("assertion without UV", "user_verification", {"uv": False}),
        ("assertion BE cleared after registration", "backup_state", {"be": False, "bs": False,
                                                                     "stored_backup_eligible": True}),
        ("assertion another account's user handle", "user_handle", {"user_handle": sa.b64url(OTHER_HANDLE)}),
        ("assertion without user handle", "user_handle", {"omit_user_handle": True}),
        ("assertion tampered signature", "signature", {"tamper_signature": True}),
        ("assertion id naming another credential", "credential_mismatch", {"id_mismatch": True}),
        ("assertion counter regression", "clone_suspected", {"counter": 3, "stored_count": 7}),
        ("assertion counter 0 after a non-zero one", "clone_suspected", {"counter": 0, "stored_count": 4}),
    ]
    for name, failure, knobs in broken:
        authentication(name, credential, authenticator, failure, **knobs)
    authentication("assertion wrong origin", credential, authenticator, "origin", origin="https://evil.example")
    for malformation in sorted(sa.AUTHENTICATION_MALFORMATIONS):
        authentication(f"assertion malformed {malformation}", credential, authenticator, bad_input=True,
                       malformed=malformation)

    document = {"rpId": RP_ID, "origins": [ORIGIN], "androidFingerprint": FINGERPRINT,
                "userHandle": sa.b64url(USER_HANDLE), "vectors": vectors}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "WebAuthnTests", "Resources",
                        "webauthn-vectors.json")
    with open(path, "w") as output:
        json.dump(document, output, indent=1)
        output.write("\n")
    print(f"{len(vectors)} vectors written to {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
