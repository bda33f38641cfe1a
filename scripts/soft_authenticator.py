#!/usr/bin/env python3
"""A software WebAuthn authenticator and client for tokenvend's tests, built on `cryptography` + `cbor2` only (no
WebAuthn library: py_webauthn checks what it makes, in scripts/passkey_authenticator.py and
scripts/generate-webauthn-vectors.py).

    import soft_authenticator as sa
    authenticator = sa.SoftAuthenticator()                       # counters increment; BE/BS clear
    registration, credential = authenticator.create(creation_options, "https://example.com")
    assertion = authenticator.get(request_options, "https://example.com")

`create` takes PublicKeyCredentialCreationOptionsJSON (a dict, as tokenvend answers it) and returns WebAuthn Level 3's
RegistrationResponseJSON (with the L3 extras `authenticatorData`, `publicKey`, `publicKeyAlgorithm`, `transports`,
and `clientExtensionResults`) plus the `Credential` it keeps (discoverable: credential id, private key, RP id, user
handle, counter, BE/BS). `get` takes PublicKeyCredentialRequestOptionsJSON and returns AuthenticationResponseJSON
signed by a kept credential (the one named, else the newest for the RP id).

Both take keyword knobs that each break (or vary) one thing, named as in `REGISTRATION_KNOBS` and
`AUTHENTICATION_KNOBS`:

- client data: `type` (e.g. `webauthn.get` at registration), `challenge` (base64url, instead of the options'),
  `cross_origin` (`crossOrigin: true`), `top_origin` (adds `topOrigin`), `android_package_name` (adds
  `androidPackageName`); the origin is `create`/`get`'s own argument (see `apk_key_hash_origin`);
- authenticator data: `rp_id` (the rpIdHash of another RP id), `up`, `uv`, `be`, `bs` (flags; `be`/`bs` at
  registration become the credential's), `no_attested_data` (registration: flag AT clear, no credential data),
  `counter` (this sign count, kept as the credential's);
- key: `alg` (-7 ES256, -8 EdDSA, -257 RS256, or -35 ES384: an algorithm tokenvend does not allow), `rsa_bits`
  (RS256 modulus size, 2048 by default), `cose_alg` (the COSE key's `alg` label, disagreeing with its key),
  `off_curve` (a P-256 point not on the curve), `short_ed25519` (an Ed25519 `x` of 31 bytes),
  `credential_id_length` (bytes, 32 by default; 1024 is over the 1023 cap), `reuse_credential` (base64url id of a
  kept credential: register that same credential again);
- attestation: `fmt` (`none`, or `packed`: a self-attestation signed by the credential key, which a relying party
  that accepts any format as `none` ignores);
- the JSON form: `id_mismatch` (`id` names another credential than `rawId`), `tamper_signature` (one signature bit
  flipped), `user_handle` (base64url: another account's handle), `omit_user_handle`, `malformed` (`base64`:
  clientDataJSON is not base64url; `client_data_json`: not JSON; `cbor`: the attestation object is not CBOR;
  `cose_key`: the credential key is not CBOR; `authenticator_data`: truncated to 20 bytes).

Flags default to what a platform passkey sends: UP and UV set, BE/BS from the authenticator's settings. Counters:
`SoftAuthenticator(counter_mode="increment")` adds one per assertion (starting from 0 at registration);
`counter_mode="zero"` always sends 0, as synced passkeys do.
"""

import base64
import hashlib
import json
import os
import threading

try:
    import cbor2
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
except ImportError as error:  # pragma: no cover
    raise SystemExit(f"{error}: run scripts/ensure-python-packages.sh (cryptography, cbor2)")

ES256, EDDSA, RS256, ES384 = -7, -8, -257, -35
ALGORITHMS = (ES256, EDDSA, RS256, ES384)
P256_PRIME = 2**256 - 2**224 + 2**192 + 2**96 - 1

FLAG_UP, FLAG_UV, FLAG_BE, FLAG_BS, FLAG_AT = 0x01, 0x04, 0x08, 0x10, 0x40
AAGUID = bytes(16)  # what platforms send with `none` attestation

CLIENT_DATA_KNOBS = {"type", "challenge", "cross_origin", "top_origin", "android_package_name"}
SHARED_KNOBS = CLIENT_DATA_KNOBS | {"rp_id", "up", "uv", "be", "bs", "counter", "id_mismatch", "malformed"}
REGISTRATION_KNOBS = SHARED_KNOBS | {"no_attested_data", "alg", "rsa_bits", "cose_alg", "off_curve", "short_ed25519",
                                     "credential_id_length", "reuse_credential", "fmt", "transports"}
AUTHENTICATION_KNOBS = SHARED_KNOBS | {"tamper_signature", "user_handle", "omit_user_handle", "credential_id"}
REGISTRATION_MALFORMATIONS = {"base64", "client_data_json", "cbor", "cose_key", "authenticator_data"}
AUTHENTICATION_MALFORMATIONS = {"base64", "client_data_json", "authenticator_data"}


class ExcludedCredential(Exception):
    """The options' `excludeCredentials` names a credential this authenticator holds (WebAuthn's InvalidStateError)."""


class NoCredential(Exception):
    """No kept credential matches the request options."""


def b64url(data):
    """Base64url without padding."""
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64url_decode(text):
    """Decodes base64url with or without padding."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def apk_key_hash_origin(fingerprint):
    """`android:apk-key-hash:<base64url(SHA-256 certificate fingerprint)>` for a fingerprint written as hex, with or
    without colons (`AB:CD:…`): the origin Android's Credential Manager sends for an app signed by that certificate."""
    raw = bytes.fromhex(fingerprint.replace(":", ""))
    if len(raw) != 32:
        raise ValueError("a SHA-256 fingerprint is 32 bytes")
    return "android:apk-key-hash:" + b64url(raw)


def _int_bytes(value, length=None):
    length = length if length is not None else max(1, (value.bit_length() + 7) // 8)
    return value.to_bytes(length, "big")


class Credential:
    """One discoverable credential: its id, key pair, RP id, user handle, counter and backup flags."""

    def __init__(self, credential_id, alg, private_key, rp_id, user_handle, user_name, backup_eligible, backed_up,
                 transports):
        self.credential_id = credential_id
        self.alg = alg
        self.private_key = private_key
        self.rp_id = rp_id
        self.user_handle = user_handle
        self.user_name = user_name
        self.counter = 0
        self.backup_eligible = backup_eligible
        self.backed_up = backed_up
        self.transports = transports

    @property
    def id(self):
        """The credential id, base64url."""
        return b64url(self.credential_id)

    def cose_key(self, cose_alg=None, off_curve=False, short_ed25519=False):
        """The public key as a COSE_Key (CBOR bytes), optionally made invalid."""
        public = self.private_key.public_key()
        alg = self.alg if cose_alg is None else cose_alg
        if self.alg in (ES256, ES384):
            numbers = public.public_numbers()
            size = 32 if self.alg == ES256 else 48
            y = numbers.y
            if off_curve:
                y = (y + 1) % P256_PRIME
            return cbor2.dumps({1: 2, 3: alg, -1: 1 if self.alg == ES256 else 2, -2: _int_bytes(numbers.x, size),
                                -3: _int_bytes(y, size)})
        if self.alg == EDDSA:
            raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            return cbor2.dumps({1: 1, 3: alg, -1: 6, -2: raw[:31] if short_ed25519 else raw})
        numbers = public.public_numbers()
        return cbor2.dumps({1: 3, 3: alg, -1: _int_bytes(numbers.n), -2: _int_bytes(numbers.e)})

    def public_key_der(self):
        """The public key as DER SubjectPublicKeyInfo (the L3 `publicKey` member)."""
        return self.private_key.public_key().public_bytes(serialization.Encoding.DER,
                                                          serialization.PublicFormat.SubjectPublicKeyInfo)

    def sign(self, data):
        """Signs like a WebAuthn authenticator: ECDSA DER over SHA-256/384, Ed25519, or RSASSA-PKCS1-v1_5 SHA-256."""
        if self.alg == ES256:
            return self.private_key.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.alg == ES384:
            return self.private_key.sign(data, ec.ECDSA(hashes.SHA384()))
        if self.alg == EDDSA:
            return self.private_key.sign(data)
        return self.private_key.sign(data, padding.PKCS1v15(), hashes.SHA256())


def new_private_key(alg, rsa_bits=2048):
    """A new key pair for a COSE algorithm."""
    if alg == ES256:
        return ec.generate_private_key(ec.SECP256R1())
    if alg == ES384:
        return ec.generate_private_key(ec.SECP384R1())
    if alg == EDDSA:
        return ed25519.Ed25519PrivateKey.generate()
    if alg == RS256:
        return rsa.generate_private_key(public_exponent=65537, key_size=rsa_bits)
    raise ValueError(f"unknown alg {alg!r}: expected one of {ALGORITHMS}")


def _check_knobs(knobs, allowed, malformations):
    unknown = set(knobs) - allowed
    if unknown:
        raise ValueError(f"unknown knobs {sorted(unknown)}")
    malformed = knobs.get("malformed")
    if malformed is not None and malformed not in malformations:
        raise ValueError(f"unknown malformation {malformed!r}: expected one of {sorted(malformations)}")


def client_data(ceremony_type, challenge, origin, knobs):
    """clientDataJSON bytes in the order browsers and platforms write them."""
    data = {"type": knobs.get("type", ceremony_type), "challenge": knobs.get("challenge", challenge),
            "origin": origin, "crossOrigin": bool(knobs.get("cross_origin", False))}
    if knobs.get("top_origin") is not None:
        data["topOrigin"] = knobs["top_origin"]
    if knobs.get("android_package_name") is not None:
        data["androidPackageName"] = knobs["android_package_name"]
    return json.dumps(data, separators=(",", ":")).encode()


def _flags(knobs, backup_eligible, backed_up, attested):
    flags = 0
    if knobs.get("up", True):
        flags |= FLAG_UP
    if knobs.get("uv", True):
        flags |= FLAG_UV
    if knobs.get("be", backup_eligible):
        flags |= FLAG_BE
    if knobs.get("bs", backed_up):
        flags |= FLAG_BS
    if attested:
        flags |= FLAG_AT
    return flags


def _malformed_client_data(encoded, malformed):
    if malformed == "base64":
        return "not*base64url!"
    if malformed == "client_data_json":
        return b64url(b'{"type":"webauthn.create","challenge":')
    return encoded


class SoftAuthenticator:
    """Discoverable credentials kept in memory, by credential id; thread-safe."""

    def __init__(self, counter_mode="increment", backup_eligible=False, backed_up=False,
                 transports=("hybrid", "internal")):
        if counter_mode not in ("increment", "zero"):
            raise ValueError("counter_mode is increment or zero")
        self.counter_mode = counter_mode
        self.backup_eligible = backup_eligible
        self.backed_up = backed_up
        self.transports = list(transports)
        self.credentials = {}
        self.lock = threading.Lock()

    def credential(self, credential_id):
        """The kept credential of a base64url id (KeyError when unknown)."""
        with self.lock:
            return self.credentials[b64url_decode(credential_id)]

    def create(self, options, origin, **knobs):
        """A registration for PublicKeyCredentialCreationOptionsJSON `options` made at `origin`: returns
        (RegistrationResponseJSON, Credential). The credential is kept even when a knob breaks the response."""
        _check_knobs(knobs, REGISTRATION_KNOBS, REGISTRATION_MALFORMATIONS)
        rp_id = options["rp"]["id"]
        user_handle = b64url_decode(options["user"]["id"])
        reuse = knobs.get("reuse_credential")
        with self.lock:
            if reuse is None:
                for descriptor in options.get("excludeCredentials") or []:
                    kept = self.credentials.get(b64url_decode(descriptor["id"]))
                    if kept is not None and kept.rp_id == rp_id:
                        raise ExcludedCredential(descriptor["id"])
        if reuse is not None:
            credential = self.credential(reuse)
        else:
            alg = knobs.get("alg", ES256)
            credential = Credential(
                os.urandom(knobs.get("credential_id_length", 32)), alg,
                new_private_key(alg, knobs.get("rsa_bits", 2048)), rp_id, user_handle, options["user"].get("name"),
                bool(knobs.get("be", self.backup_eligible)), bool(knobs.get("bs", self.backed_up)),
                list(knobs.get("transports", self.transports)))
            if "counter" in knobs:
                credential.counter = int(knobs["counter"])
            with self.lock:
                self.credentials[credential.credential_id] = credential
        client_data_json = client_data("webauthn.create", options["challenge"], origin, knobs)
        cose_key = credential.cose_key(knobs.get("cose_alg"), bool(knobs.get("off_curve")),
                                       bool(knobs.get("short_ed25519")))
        if knobs.get("malformed") == "cose_key":
            cose_key = b"\xff\xfe\xfd"
        rp_id_hash = hashlib.sha256(knobs.get("rp_id", rp_id).encode()).digest()
        attested = not knobs.get("no_attested_data")
        flags = _flags(knobs, credential.backup_eligible, credential.backed_up, attested)
        counter = int(knobs.get("counter", credential.counter))
        authenticator_data = rp_id_hash + bytes([flags]) + counter.to_bytes(4, "big")
        if attested:
            authenticator_data += (AAGUID + len(credential.credential_id).to_bytes(2, "big")
                                   + credential.credential_id + cose_key)
        if knobs.get("malformed") == "authenticator_data":
            authenticator_data = authenticator_data[:20]
        fmt = knobs.get("fmt", "none")
        if fmt == "none":
            statement = {}
        elif fmt == "packed":
            signed = authenticator_data + hashlib.sha256(client_data_json).digest()
            statement = {"alg": credential.alg, "sig": credential.sign(signed)}
        else:
            raise ValueError("fmt is none or packed")
        attestation_object = cbor2.dumps({"fmt": fmt, "attStmt": statement, "authData": authenticator_data})
        if knobs.get("malformed") == "cbor":
            attestation_object = b"\xff" + attestation_object[1:]
        raw_id = b64url(credential.credential_id)
        response = {
            "id": b64url(os.urandom(len(credential.credential_id))) if knobs.get("id_mismatch") else raw_id,
            "rawId": raw_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": _malformed_client_data(b64url(client_data_json), knobs.get("malformed")),
                "attestationObject": b64url(attestation_object),
                "transports": credential.transports,
                "authenticatorData": b64url(authenticator_data),
                "publicKey": b64url(credential.public_key_der()),
                "publicKeyAlgorithm": credential.alg,
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {"credProps": {"rk": True}},
        }
        return response, credential

    def _choose(self, options, knobs):
        rp_id = options["rpId"]
        with self.lock:
            wanted = knobs.get("credential_id")
            if wanted is not None:
                return self.credentials[b64url_decode(wanted)]
            allowed = {b64url_decode(descriptor["id"]) for descriptor in options.get("allowCredentials") or []}
            candidates = [credential for credential in self.credentials.values()
                          if credential.rp_id == rp_id and (not allowed or credential.credential_id in allowed)]
        if not candidates:
            raise NoCredential(rp_id)
        return candidates[-1]

    def get(self, options, origin, **knobs):
        """An assertion for PublicKeyCredentialRequestOptionsJSON `options` made at `origin` by the credential
        `credential_id` (base64url) or else the newest one kept for the RP id: AuthenticationResponseJSON."""
        _check_knobs(knobs, AUTHENTICATION_KNOBS, AUTHENTICATION_MALFORMATIONS)
        credential = self._choose(options, knobs)
        with self.lock:
            if "counter" in knobs:
                credential.counter = int(knobs["counter"])
            elif self.counter_mode == "increment":
                credential.counter += 1
            counter = credential.counter
        if "bs" in knobs and credential.backup_eligible:
            credential.backed_up = bool(knobs["bs"])  # a synced passkey's backup state may change
        client_data_json = client_data("webauthn.get", options["challenge"], origin, knobs)
        rp_id_hash = hashlib.sha256(knobs.get("rp_id", options["rpId"]).encode()).digest()
        flags = _flags(knobs, credential.backup_eligible, credential.backed_up, False)
        authenticator_data = rp_id_hash + bytes([flags]) + counter.to_bytes(4, "big")
        signature = credential.sign(authenticator_data + hashlib.sha256(client_data_json).digest())
        if knobs.get("tamper_signature"):
            changed = bytearray(signature)
            changed[len(changed) // 2] ^= 0x01
            signature = bytes(changed)
        if knobs.get("malformed") == "authenticator_data":
            authenticator_data = authenticator_data[:20]
        raw_id = b64url(credential.credential_id)
        response = {
            "clientDataJSON": _malformed_client_data(b64url(client_data_json), knobs.get("malformed")),
            "authenticatorData": b64url(authenticator_data),
            "signature": b64url(signature),
        }
        if not knobs.get("omit_user_handle"):
            response["userHandle"] = knobs.get("user_handle", b64url(credential.user_handle))
        return {
            "id": b64url(os.urandom(len(credential.credential_id))) if knobs.get("id_mismatch") else raw_id,
            "rawId": raw_id,
            "type": "public-key",
            "response": response,
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }
