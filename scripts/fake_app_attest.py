#!/usr/bin/env python3
"""A fake Apple App Attest for tokenvend's tests: what DCAppAttestService and Apple's attestation service would
give an app, built from throw-away keys made at start (nothing checked in), on loopback.

    fake_app_attest.py [--port 0]

Prints `PORT <n>` on stdout once listening; exits when its parent process ends (a suite's shared fake outlives
no test run). At start it makes a root (P-384, self-signed, CA) and an
intermediate (P-384, CA) as Apple's "Apple App Attestation Root CA" and "Apple App Attestation CA 1", plus a
second, unrelated root and intermediate for the `other_root` case.

Endpoints (JSON in and out; bytes as standard base64):
- `GET /root` -> `{"pem"}`: the root certificate (what `integrity.apple.rootCertificateFile` points at in tests).
- `POST /key {}` -> `{"keyId", "handle"}`: a new P-256 key, as `generateKey` makes one (keyId = SHA-256 of the
  uncompressed public point).
- `POST /attest {"appId", "clientDataHash", "handle"?, "development"?, "tamper"?}` -> `{"keyId", "attestation",
  "handle"}`: the CBOR attestation object `{"fmt": "apple-appattest", "attStmt": {"x5c": [leaf, intermediate],
  "receipt"}, "authData"}` for that key (a new one without `handle`). The leaf carries the nonce extension
  1.2.840.113635.100.8.2 = DER SEQUENCE { [1] EXPLICIT OCTET STRING SHA256(authData || clientDataHash) }.
  `tamper` breaks exactly one check: `nonce` (the leaf certifies another nonce), `key_id` (the keyId answered is
  not the key's), `counter` (authData counter 1), `aaguid` (an unknown AAGUID), `fmt` (fmt `packed`),
  `other_root` (the chain leads to the other root), `expired` (the leaf's validity ended yesterday).
- `POST /assert {"handle", "appId", "clientDataHash", "counter"}` -> `{"assertion"}`: CBOR
  `{"signature", "authenticatorData"}`, the signature ES256 (DER) over nonce = SHA256(authenticatorData ||
  clientDataHash), i.e. the ECDSA digest is SHA256(nonce), as devices sign.

Started by Tests/AppIntegrityTesting/FakeAppAttest.swift; scripts/check-app-attest.py imports `FakeAppAttest`
from it and has PyPI pyattest verify its attestation. scripts/ensure-python-packages.sh installs cryptography and
cbor2.
"""

import base64
import datetime
import hashlib
import json
import secrets
import sys
import threading

import loopback_fake

try:
    import cbor2
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID
except ImportError:
    print("cbor2 or cryptography is missing: run scripts/ensure-python-packages.sh (make test does)", file=sys.stderr)
    sys.exit(3)

NONCE_OID = x509.ObjectIdentifier("1.2.840.113635.100.8.2")
PRODUCTION_AAGUID = b"appattest" + b"\x00" * 7
DEVELOPMENT_AAGUID = b"appattestdevelop"
TAMPERS = {"nonce", "key_id", "counter", "aaguid", "fmt", "other_root", "expired"}


def name(common_name):
    return x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Fake Apple Inc."),
        x509.NameAttribute(NameOID.STATE_OR_PROVINCE_NAME, "California"),
    ])


def point(key):
    """The uncompressed SEC1 point of an EC key (65 bytes on P-256)."""
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def der_length(length):
    if length < 0x80:
        return bytes([length])
    encoded = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(encoded)]) + encoded


def der(tag, content):
    return bytes([tag]) + der_length(len(content)) + content


def nonce_extension(nonce):
    """DER SEQUENCE { [1] EXPLICIT OCTET STRING nonce }."""
    return der(0x30, der(0xA1, der(0x04, nonce)))


class Authority:
    """A root and an intermediate (P-384) that issue leaf certificates."""

    def __init__(self, label, now):
        self.root_key = ec.generate_private_key(ec.SECP384R1())
        self.intermediate_key = ec.generate_private_key(ec.SECP384R1())
        root_name = name(f"{label} App Attestation Root CA")
        intermediate_name = name(f"{label} App Attestation CA 1")
        self.root = self._ca(root_name, root_name, self.root_key.public_key(), self.root_key, now, None)
        self.intermediate = self._ca(intermediate_name, root_name, self.intermediate_key.public_key(),
                                     self.root_key, now, 0)

    @staticmethod
    def _ca(subject, issuer, public_key, signer, now, path_length):
        return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(days=1))
                .not_valid_after(now + datetime.timedelta(days=3650))
                .add_extension(x509.BasicConstraints(ca=True, path_length=path_length), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                             data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                             crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
                .sign(signer, hashes.SHA384()))

    def leaf(self, key, nonce, expired):
        now = datetime.datetime.now(datetime.timezone.utc)
        start, end = ((now - datetime.timedelta(days=3), now - datetime.timedelta(days=1)) if expired
                      else (now - datetime.timedelta(hours=1), now + datetime.timedelta(days=3)))
        return (x509.CertificateBuilder()
                .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                            hashlib.sha256(point(key)).hexdigest())]))
                .issuer_name(self.intermediate.subject).public_key(key.public_key())
                .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True, key_encipherment=False,
                                             data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                             crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
                .add_extension(x509.UnrecognizedExtension(NONCE_OID, nonce_extension(nonce)), critical=False)
                .sign(self.intermediate_key, hashes.SHA256()))


class FakeAppAttest:
    """Keys by handle, and the attestations and assertions a device would make with them."""

    def __init__(self):
        now = datetime.datetime.now(datetime.timezone.utc)
        self.authority = Authority("Fake Apple", now)
        self.other = Authority("Other", now)
        self.keys = {}
        self.lock = threading.Lock()

    def root_pem(self):
        return self.authority.root.public_bytes(serialization.Encoding.PEM).decode()

    def new_key(self):
        key = ec.generate_private_key(ec.SECP256R1())
        handle = secrets.token_hex(16)
        with self.lock:
            self.keys[handle] = key
        return handle, hashlib.sha256(point(key)).digest()

    def key(self, handle):
        with self.lock:
            key = self.keys.get(handle)
        if key is None:
            raise ValueError(f"unknown handle {handle!r}")
        return key

    def attest(self, app_id, client_data_hash, handle=None, development=False, tamper=None):
        """(keyId bytes, attestation bytes, handle)."""
        if tamper is not None and tamper not in TAMPERS:
            raise ValueError(f"unknown tamper {tamper!r}")
        if handle is None:
            handle, _ = self.new_key()
        key = self.key(handle)
        key_id = hashlib.sha256(point(key)).digest()
        numbers = key.public_key().public_numbers()
        cose_key = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        aaguid = {"aaguid": b"notappattest\x00\x00\x00\x00"}.get(tamper, DEVELOPMENT_AAGUID if development
                                                                 else PRODUCTION_AAGUID)
        counter = 1 if tamper == "counter" else 0
        auth_data = (hashlib.sha256(app_id.encode()).digest() + bytes([0x40]) + counter.to_bytes(4, "big") + aaguid
                     + len(key_id).to_bytes(2, "big") + key_id + cbor2.dumps(cose_key))
        nonce = hashlib.sha256(auth_data + client_data_hash).digest()
        if tamper == "nonce":
            nonce = hashlib.sha256(auth_data + hashlib.sha256(b"another challenge").digest()).digest()
        authority = self.other if tamper == "other_root" else self.authority
        leaf = authority.leaf(key, nonce, expired=tamper == "expired")
        statement = {"x5c": [leaf.public_bytes(serialization.Encoding.DER),
                             authority.intermediate.public_bytes(serialization.Encoding.DER)],
                     "receipt": b"fake receipt: not used by tokenvend"}
        attestation = cbor2.dumps({"fmt": "packed" if tamper == "fmt" else "apple-appattest", "attStmt": statement,
                                   "authData": auth_data})
        answered_key_id = hashlib.sha256(key_id).digest() if tamper == "key_id" else key_id
        return answered_key_id, attestation, handle

    def assertion(self, handle, app_id, client_data_hash, counter):
        key = self.key(handle)
        authenticator_data = hashlib.sha256(app_id.encode()).digest() + bytes([0x00]) + counter.to_bytes(4, "big")
        nonce = hashlib.sha256(authenticator_data + client_data_hash).digest()
        signature = key.sign(nonce, ec.ECDSA(hashes.SHA256()))
        return cbor2.dumps({"signature": signature, "authenticatorData": authenticator_data})


def b64(data):
    return base64.b64encode(data).decode()


def routes(fake):
    """The fake's `GET` and `POST` routes for loopback_fake.json_handler."""

    def key(body):
        handle, key_id = fake.new_key()
        return {"keyId": b64(key_id), "handle": handle}

    def attest(body):
        key_id, attestation, handle = fake.attest(
            body["appId"], base64.b64decode(body["clientDataHash"], validate=True), body.get("handle"),
            bool(body.get("development", False)), body.get("tamper"))
        return {"keyId": b64(key_id), "attestation": b64(attestation), "handle": handle}

    def assertion(body):
        signed = fake.assertion(body["handle"], body["appId"], base64.b64decode(body["clientDataHash"], validate=True),
                                int(body["counter"]))
        return {"assertion": b64(signed)}

    return {"/root": lambda: {"pem": fake.root_pem()}}, {"/key": key, "/attest": attest, "/assert": assertion}


def print_chain(fake):
    """One JSON line: the root (PEM), the other root (PEM), and as base64 DER an intermediate, a leaf with the
    nonce extension over 32 bytes of 0x07, the same leaf expired, and the leaf's point."""
    key = ec.generate_private_key(ec.SECP256R1())
    nonce = b"\x07" * 32
    encode = serialization.Encoding.DER
    print(json.dumps({
        "root": fake.root_pem(),
        "otherRoot": fake.other.root.public_bytes(serialization.Encoding.PEM).decode(),
        "intermediate": b64(fake.authority.intermediate.public_bytes(encode)),
        "leaf": b64(fake.authority.leaf(key, nonce, expired=False).public_bytes(encode)),
        "expiredLeaf": b64(fake.authority.leaf(key, nonce, expired=True).public_bytes(encode)),
        "point": b64(point(key)),
        "nonceExtension": b64(nonce_extension(nonce)),
    }), flush=True)


def main():
    parser = loopback_fake.argument_parser("fake Apple App Attest for tests")
    parser.add_argument("--print-chain", action="store_true",
                        help="print one chain as JSON and exit (Tests/CryptographyTests/X509CertificateTests)")
    arguments = parser.parse_args()
    if arguments.print_chain:
        print_chain(FakeAppAttest())
        return
    loopback_fake.serve(loopback_fake.json_handler(*routes(FakeAppAttest())), arguments)


if __name__ == "__main__":
    main()
