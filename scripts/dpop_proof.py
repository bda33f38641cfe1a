#!/usr/bin/env python3
"""A DPoP proof maker (RFC 9449) for tokenvend's end-to-end tests, on loopback: keys made in the process, proofs
signed with joserfc (the hostile `alg: none` and HS256 ones with PyJWT), independently of tokenvend's own JWT code.

    dpop_proof.py [--port 0]

Prints `PORT <n>` on stdout once listening; exits when its parent process ends.

Endpoints (JSON in and out):
- `POST /key {"alg": "ES256" | "EdDSA" | "RS256"}` -> `{"keyId", "thumbprint"}`: a new key pair (P-256, Ed25519,
  RSA 2048) kept in the process; `thumbprint` is its RFC 7638 SHA-256 thumbprint (base64url).
- `POST /proof {"keyId", "htm", "htu", "accessToken"?, "nonce"?, "iat"?, "jti"?, "tamper"?}` -> `{"proof"}`: a
  compact JWS with header `typ` `dpop+jwt`, the key's `alg` and its public `jwk`, and claims `jti` (default 32
  random bytes, base64url), `htm`, `htu`, `iat` (default now, whole seconds), `ath` (base64url SHA-256 of
  `accessToken`, when given) and `nonce` (when given). `tamper` makes it hostile in one way:
  `alg_none` (PyJWT, `alg: none`, empty signature), `hs256` (PyJWT, HS256 under a made-up secret), `private_jwk`
  (the header `jwk` carries the private members), `typ` (`typ: JWT`), `no_jwk` (no header `jwk`),
  `other_key_jwk` (the header `jwk` of another key than the signer's), `signature` (one signature bit flipped),
  `no_jti`, `no_iat`, `ath_other` (the `ath` of another token), `large` (a padding claim: the proof is over 8 KiB).

Started by Tests/TokenServiceTesting/DPoPProofMaker.swift. scripts/ensure-python-packages.sh installs joserfc,
PyJWT and cryptography.
"""

import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import warnings

import loopback_fake

try:
    import jwt as pyjwt
    from joserfc import jws
    from joserfc.jwk import ECKey, OKPKey, RSAKey
except ImportError:
    print("joserfc or PyJWT is missing: run scripts/ensure-python-packages.sh (make test does)", file=sys.stderr)
    sys.exit(3)

# joserfc warns that RFC 9864 deprecates the name EdDSA; RFC 9449 deployments (and tokenvend) still use it.
warnings.filterwarnings("ignore", message=".*EdDSA.*")

TAMPERS = {"alg_none", "hs256", "private_jwk", "typ", "no_jwk", "other_key_jwk", "signature", "no_jti", "no_iat",
           "ath_other", "large"}
LARGE_PADDING = 6000  # over 8 KiB once base64url-encoded, well under the 16 KiB header limit


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def generate(alg):
    if alg == "ES256":
        return ECKey.generate_key("P-256")
    if alg == "EdDSA":
        return OKPKey.generate_key("Ed25519")
    if alg == "RS256":
        return RSAKey.generate_key(2048)
    raise ValueError(f"unknown alg {alg!r}: expected ES256, EdDSA or RS256")


class ProofMaker:
    """The keys made so far, by id, with their algorithm."""

    def __init__(self):
        self.keys = {}
        self.lock = threading.Lock()

    def new_key(self, alg):
        key = generate(alg)
        with self.lock:
            key_id = f"k{len(self.keys) + 1}"
            self.keys[key_id] = (alg, key)
        return {"keyId": key_id, "thumbprint": key.thumbprint()}

    def proof(self, key_id, htm, htu, access_token=None, nonce=None, iat=None, jti=None, tamper=None):
        with self.lock:
            alg, key = self.keys[key_id]
        if tamper is not None and tamper not in TAMPERS:
            raise ValueError(f"unknown tamper {tamper!r}")
        claims = {"jti": jti if jti is not None else b64url(secrets.token_bytes(32)), "htm": htm, "htu": htu,
                  "iat": int(iat) if iat is not None else int(time.time())}
        if access_token is not None:
            claims["ath"] = b64url(hashlib.sha256(access_token.encode()).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        if tamper == "no_jti":
            del claims["jti"]
        if tamper == "no_iat":
            del claims["iat"]
        if tamper == "ath_other":
            claims["ath"] = b64url(hashlib.sha256(b"another access token").digest())
        if tamper == "large":
            claims["padding"] = "p" * LARGE_PADDING
        public = key.as_dict(private=False)
        if tamper == "alg_none":
            return pyjwt.encode(claims, None, algorithm="none", headers={"typ": "dpop+jwt", "jwk": public})
        if tamper == "hs256":
            return pyjwt.encode(claims, secrets.token_bytes(32), algorithm="HS256",
                                headers={"typ": "dpop+jwt", "jwk": public})
        header = {"typ": "JWT" if tamper == "typ" else "dpop+jwt", "alg": alg}
        if tamper == "private_jwk":
            header["jwk"] = key.as_dict(private=True)
        elif tamper == "other_key_jwk":
            header["jwk"] = generate(alg).as_dict(private=False)
        elif tamper != "no_jwk":
            header["jwk"] = public
        payload = json.dumps(claims, separators=(",", ":")).encode()
        token = jws.serialize_compact(header, payload, key, algorithms=[alg])
        if tamper == "signature":
            head, body, signature = token.split(".")
            raw = bytearray(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
            raw[len(raw) // 2] ^= 0x01
            token = f"{head}.{body}.{b64url(bytes(raw))}"
        return token


def routes(maker):
    """The maker's `POST` routes for loopback_fake.json_handler."""

    def key(body):
        return maker.new_key(body["alg"])

    def proof(body):
        return {"proof": maker.proof(body["keyId"], body["htm"], body["htu"], body.get("accessToken"),
                                     body.get("nonce"), body.get("iat"), body.get("jti"), body.get("tamper"))}

    return {}, {"/key": key, "/proof": proof}


def main():
    arguments = loopback_fake.argument_parser("DPoP proofs made with joserfc and PyJWT for tests").parse_args()
    loopback_fake.serve(loopback_fake.json_handler(*routes(ProofMaker())), arguments)


if __name__ == "__main__":
    main()
