#!/usr/bin/env python3
"""Writes Tests/DPoPTests/Resources/dpop-vectors.json: DPoP proofs (RFC 9449) made by joserfc and PyJWT (never by
tokenvend's code) with fixed keys and a fixed clock, valid ones and one per way a proof can fail, for
Tests/DPoPTests/DPoPVectorTests.swift.

Each vector names the request it is checked against (method, targetURI, accessToken, the allowed algorithms, the
clock `now`) and either `failure` (a DPoPProofFailure raw value) or what the verified proof holds (thumbprint
computed by joserfc, jti, iat, nonce, alg). ECDSA signatures are randomised, so a rerun changes the ES256 proofs
but not what they test. Run: python3 scripts/generate-dpop-vectors.py (needs joserfc, PyJWT, cryptography).
"""

import base64
import hashlib
import json
import pathlib
import random
import warnings

import jwt  # PyJWT
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from joserfc import jws
from joserfc.jwk import ECKey, OKPKey, RSAKey

warnings.simplefilter("ignore")  # joserfc's note that RFC 9864 deprecates "EdDSA"; DPoP still uses the name

NOW = 1_767_225_600  # 2026-01-01T00:00:00Z
METHOD = "POST"
TARGET = "https://api.example.com/auth/refresh"
ACCESS_TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl"
OTHER_TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTIifQ.c2lnbmF0dXJl"
ALL = ["ES256", "EdDSA", "RS256"]
OUT = pathlib.Path(__file__).resolve().parent.parent / "Tests/DPoPTests/Resources/dpop-vectors.json"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def segment(obj) -> str:
    return b64(json.dumps(obj, separators=(",", ":")).encode())


def ath(token: str) -> str:
    return b64(hashlib.sha256(token.encode("ascii")).digest())


def is_probable_prime(n: int, rng: random.Random) -> bool:
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(40):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def fixed_rsa(bits: int, seed: int) -> rsa.RSAPrivateKey:
    """An RSA key from primes found deterministically from `seed` (cryptography cannot seed its generator)."""
    rng = random.Random(seed)
    e = 65537

    def prime() -> int:
        while True:
            candidate = rng.getrandbits(bits // 2) | (3 << (bits // 2 - 2)) | 1
            if (candidate - 1) % e != 0 and is_probable_prime(candidate, rng):
                return candidate

    p, q = prime(), prime()
    d = pow(e, -1, (p - 1) * (q - 1))
    numbers = rsa.RSAPrivateNumbers(
        p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
        rsa.RSAPublicNumbers(e, p * q))
    return numbers.private_key()


EC_A = ECKey.import_key(ec.derive_private_key(0x35_0001_AAAA_5555, ec.SECP256R1()))
EC_B = ECKey.import_key(ec.derive_private_key(0x35_0002_BBBB_6666, ec.SECP256R1()))
EC_P384 = ec.derive_private_key(0x35_0003_CCCC_7777, ec.SECP384R1())
ED_A = OKPKey.import_key(ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33))))
RSA_A = RSAKey.import_key(fixed_rsa(2048, 35))
RSA_SHORT = fixed_rsa(1024, 36)


def public(key) -> dict:
    return key.as_dict(private=False)


def claims(jti: str, **extra) -> dict:
    base = {"jti": jti, "htm": METHOD, "htu": TARGET, "iat": NOW}
    base.update(extra)
    return {k: v for k, v in base.items() if v is not None}


def joserfc_proof(key, alg: str, payload: dict, header_extra: dict | None = None, jwk: dict | None = None) -> str:
    header = {"typ": "dpop+jwt", "alg": alg, "jwk": jwk if jwk is not None else public(key)}
    header.update(header_extra or {})
    header = {k: v for k, v in header.items() if v is not None}
    return jws.serialize_compact(header, json.dumps(payload).encode(), key, algorithms=[alg])


def raw_es256(private_key, header: dict, payload: dict) -> str:
    """An ES256-shaped proof signed directly with cryptography (for keys joserfc refuses to use as ES256)."""
    signing_input = f"{segment(header)}.{segment(payload)}"
    der = private_key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    size = (private_key.curve.key_size + 7) // 8
    return f"{signing_input}.{b64(r.to_bytes(size, 'big') + s.to_bytes(size, 'big'))}"


vectors = []


def valid(name, proof, key, alg, jti, iat=NOW, nonce=None, token=None, method=METHOD, target=TARGET, algorithms=ALL):
    vectors.append({
        "name": name, "proof": proof, "method": method, "targetURI": target, "accessToken": token,
        "algorithms": algorithms, "now": NOW,
        "expect": {"thumbprint": key.thumbprint(), "jti": jti, "iat": iat, "nonce": nonce, "alg": alg},
    })


def invalid(name, proof, failure, token=None, method=METHOD, target=TARGET, algorithms=ALL):
    vectors.append({
        "name": name, "proof": proof, "method": method, "targetURI": target, "accessToken": token,
        "algorithms": algorithms, "now": NOW, "failure": failure,
    })


# Valid proofs.
valid("ES256", joserfc_proof(EC_A, "ES256", claims("es-1")), EC_A, "ES256", "es-1")
valid("ES256 with ath and nonce",
      joserfc_proof(EC_A, "ES256", claims("es-2", ath=ath(ACCESS_TOKEN), nonce="n-123")),
      EC_A, "ES256", "es-2", nonce="n-123", token=ACCESS_TOKEN)
valid("EdDSA", joserfc_proof(ED_A, "EdDSA", claims("ed-1")), ED_A, "EdDSA", "ed-1")
valid("EdDSA with ath", joserfc_proof(ED_A, "EdDSA", claims("ed-2", ath=ath(ACCESS_TOKEN))),
      ED_A, "EdDSA", "ed-2", token=ACCESS_TOKEN)
valid("EdDSA with nonce", joserfc_proof(ED_A, "EdDSA", claims("ed-3", nonce="abc_DEF-0")),
      ED_A, "EdDSA", "ed-3", nonce="abc_DEF-0")
valid("RS256 with ath (PyJWT)",
      jwt.encode(claims("rs-1", ath=ath(ACCESS_TOKEN)), RSA_A.private_key, algorithm="RS256",
                 headers={"typ": "dpop+jwt", "jwk": public(RSA_A)}),
      RSA_A, "RS256", "rs-1", token=ACCESS_TOKEN)
valid("ES256 signed by PyJWT",
      jwt.encode(claims("es-pyjwt"), EC_A.private_key, algorithm="ES256",
                 headers={"typ": "dpop+jwt", "jwk": public(EC_A)}),
      EC_A, "ES256", "es-pyjwt")
valid("htu with a query and a fragment matches without them",
      joserfc_proof(EC_A, "ES256", claims("es-q", htu=TARGET + "?x=1#top")), EC_A, "ES256", "es-q")
valid("htu that needs RFC 3986 normalisation",
      joserfc_proof(EC_A, "ES256", claims("es-n", htu="HTTPS://Example.COM:443/a/./b/../c")),
      EC_A, "ES256", "es-n", target="https://example.com/a/c")
valid("iat exactly maxAgeSeconds old", joserfc_proof(ED_A, "EdDSA", claims("ed-old", iat=NOW - 60)),
      ED_A, "EdDSA", "ed-old", iat=NOW - 60)
valid("iat 5 s ahead", joserfc_proof(ED_A, "EdDSA", claims("ed-ahead", iat=NOW + 5)),
      ED_A, "EdDSA", "ed-ahead", iat=NOW + 5)
valid("iat with a fraction is taken rounded down",
      joserfc_proof(ED_A, "EdDSA", claims("ed-frac", iat=NOW + 0.75)), ED_A, "EdDSA", "ed-frac", iat=NOW)
valid("jti of 256 characters", joserfc_proof(ED_A, "EdDSA", claims("j" * 256)), ED_A, "EdDSA", "j" * 256)
valid("jwk with kid, alg and use", joserfc_proof(
    EC_A, "ES256", claims("es-kid"), jwk={**public(EC_A), "kid": "device-1", "alg": "ES256", "use": "sig"}),
    EC_A, "ES256", "es-kid")

# One per failure.
big = claims("big", pad="x" * 9000)
invalid("over 8 KiB", joserfc_proof(EC_A, "ES256", big), "too_large")
invalid("two segments", ".".join(joserfc_proof(EC_A, "ES256", claims("two")).split(".")[:2]), "malformed")
invalid("garbage", "not a proof at all", "malformed")
invalid("four segments", joserfc_proof(EC_A, "ES256", claims("four")) + ".AAAA", "malformed")
invalid("header not JSON", b64(b"{typ:") + "." + segment(claims("x")) + ".AAAA", "malformed")
invalid("payload a JSON array",
        segment({"typ": "dpop+jwt", "alg": "EdDSA", "jwk": public(ED_A)}) + "." + b64(b"[1]") + ".AAAA",
        "malformed")
invalid("padded base64url signature", joserfc_proof(EC_A, "ES256", claims("pad")) + "==", "malformed")
invalid("crit header (PyJWT)",
        jwt.encode(claims("crit"), ED_A.private_key, algorithm="EdDSA",
                   headers={"typ": "dpop+jwt", "jwk": public(ED_A), "crit": ["x-ext"], "x-ext": 1}), "malformed")
invalid("nonce not a string", joserfc_proof(ED_A, "EdDSA", claims("nonce-num", nonce=7)), "malformed")
invalid("typ JWT", joserfc_proof(EC_A, "ES256", claims("typ"), {"typ": "JWT"}), "type")
invalid("typ in upper case", joserfc_proof(EC_A, "ES256", claims("typ-u"), {"typ": "DPOP+JWT"}), "type")
invalid("typ missing", joserfc_proof(EC_A, "ES256", claims("typ-m"), {"typ": None}), "type")
invalid("alg none",
        segment({"typ": "dpop+jwt", "alg": "none", "jwk": public(EC_A)}) + "." + segment(claims("none")) + ".",
        "malformed")
invalid("alg none with a signature segment",
        segment({"typ": "dpop+jwt", "alg": "none", "jwk": public(EC_A)}) + "." + segment(claims("none2")) + ".AAAA",
        "algorithm")
invalid("HS256 (PyJWT)",
        jwt.encode(claims("hs"), "a-secret-of-at-least-32-bytes-long!", algorithm="HS256",
                   headers={"typ": "dpop+jwt", "jwk": public(EC_A)}), "algorithm")
invalid("RS256 when only ES256 and EdDSA are allowed",
        jwt.encode(claims("rs-off"), RSA_A.private_key, algorithm="RS256",
                   headers={"typ": "dpop+jwt", "jwk": public(RSA_A)}), "algorithm", algorithms=["ES256", "EdDSA"])
invalid("jwk missing", joserfc_proof(EC_A, "ES256", claims("nojwk"), {"jwk": None}), "key")
invalid("jwk a string (PyJWT)",
        jwt.encode(claims("strjwk"), EC_A.private_key, algorithm="ES256",
                   headers={"typ": "dpop+jwt", "jwk": "not-a-key"}), "key")
invalid("EC jwk with d", joserfc_proof(EC_A, "ES256", claims("ec-d"), jwk=EC_A.as_dict(private=True)), "private_key")
invalid("OKP jwk with d", joserfc_proof(ED_A, "EdDSA", claims("okp-d"), jwk=ED_A.as_dict(private=True)),
        "private_key")
invalid("jwk with k", joserfc_proof(EC_A, "ES256", claims("k"), jwk={**public(EC_A), "k": "c2VjcmV0"}), "private_key")
p384 = ECKey.import_key(EC_P384)
invalid("P-384 jwk with alg ES256",
        raw_es256(EC_P384, {"typ": "dpop+jwt", "alg": "ES256", "jwk": public(p384)}, claims("p384")), "key")
invalid("OKP jwk with alg ES256",
        raw_es256(EC_A.private_key, {"typ": "dpop+jwt", "alg": "ES256", "jwk": public(ED_A)}, claims("okp-es")), "key")
off_curve = {**public(EC_A), "y": public(EC_B)["y"]}
invalid("EC point not on the curve",
        raw_es256(EC_A.private_key, {"typ": "dpop+jwt", "alg": "ES256", "jwk": off_curve}, claims("curve")), "key")
invalid("RSA key of 1024 bits",
        jwt.encode(claims("rs-short"), RSA_SHORT, algorithm="RS256",
                   headers={"typ": "dpop+jwt", "jwk": RSAKey.import_key(RSA_SHORT).as_dict(private=False)}), "key")
invalid("jwk not the signing key", joserfc_proof(EC_A, "ES256", claims("other"), jwk=public(EC_B)), "signature")
good = joserfc_proof(ED_A, "EdDSA", claims("tamper"))
head, _, sig = good.split(".")
invalid("tampered payload", f"{head}.{segment(claims('tamper', htm='GET'))}.{sig}", "signature")
invalid("jti missing", joserfc_proof(ED_A, "EdDSA", claims(None)), "claims")
invalid("jti empty", joserfc_proof(ED_A, "EdDSA", claims("")), "claims")
invalid("jti of 257 characters", joserfc_proof(ED_A, "EdDSA", claims("j" * 257)), "claims")
invalid("htm missing", joserfc_proof(ED_A, "EdDSA", claims("htm", htm=None)), "claims")
invalid("htu missing", joserfc_proof(ED_A, "EdDSA", claims("htu", htu=None)), "claims")
invalid("iat missing", joserfc_proof(ED_A, "EdDSA", claims("iat", iat=None)), "claims")
invalid("iat a string", joserfc_proof(ED_A, "EdDSA", claims("iat-s", iat=str(NOW))), "claims")
invalid("htm GET for a POST", joserfc_proof(ED_A, "EdDSA", claims("get", htm="GET")), "method")
invalid("htm in lower case", joserfc_proof(ED_A, "EdDSA", claims("post", htm="post")), "method")
invalid("htu of another path", joserfc_proof(ED_A, "EdDSA", claims("path", htu="https://api.example.com/auth/me")),
        "uri")
invalid("htu of another host", joserfc_proof(ED_A, "EdDSA", claims("host", htu="https://evil.example/auth/refresh")),
        "uri")
invalid("htu relative", joserfc_proof(ED_A, "EdDSA", claims("rel", htu="/auth/refresh")), "uri")
invalid("iat 61 s old", joserfc_proof(ED_A, "EdDSA", claims("stale", iat=NOW - 61)), "stale")
invalid("iat 6 s ahead", joserfc_proof(ED_A, "EdDSA", claims("future", iat=NOW + 6)), "future")
invalid("ath of another token", joserfc_proof(EC_A, "ES256", claims("ath-o", ath=ath(OTHER_TOKEN))), "ath",
        token=ACCESS_TOKEN)
invalid("ath absent with a token", joserfc_proof(EC_A, "ES256", claims("ath-a")), "ath", token=ACCESS_TOKEN)
invalid("ath present without a token", joserfc_proof(EC_A, "ES256", claims("ath-p", ath=ath(ACCESS_TOKEN))), "ath")

OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_text(json.dumps({"generator": "scripts/generate-dpop-vectors.py", "vectors": vectors}, indent=1) + "\n")
print(f"wrote {len(vectors)} vectors to {OUT}")
