public import Cryptography

/// One JWS key of any kind — an HMAC secret, or an ES256, EdDSA or RS256 key — fixed to one algorithm.
///
/// The key fixes the algorithm: a token verified with it must carry exactly this `alg`, so an HMAC key never
/// verifies an ES256/EdDSA/RS256 token and an asymmetric key never verifies an HS token (a public key's bytes used
/// as an HMAC secret get nothing). Immutable and safe to share between threads. `description` shows the `kid`, the
/// algorithm and the fingerprint, never key material.
///
/// ```swift
/// let key = try JWTKey.generate(kid: "2026-01", algorithm: .es256)
/// try PrivateFile.writeAtomically(key.privateKeyPEM(), to: path)       // PKCS#8, 0600
/// let published = key.publicJWK()                                      // {"kty":"EC","kid":"2026-01",…}
/// let verifier = try JWTKey(jwk: published!)                           // verify-only
/// ```
public struct JWTKey: Sendable {
    /// What signs and verifies.
    enum Material: Sendable {
        case hmac(HMACKey)
        case asymmetric(AsymmetricKey)
    }

    /// The key identifier put in, and matched against, the header `kid`. Never empty.
    public let kid: String
    /// The only algorithm this key signs and verifies.
    public let algorithm: JWTAlgorithm
    /// A short, non-reversible tag for logs: for HMAC keys the `HMACKey` fingerprint, for asymmetric keys the
    /// first 8 characters of the RFC 7638 thumbprint of the public key (the same for its public and private forms).
    public let fingerprint: String
    let material: Material
    /// The public JWK, computed once (nil for HMAC keys).
    private let cachedPublicJWK: JWK?

    /// Wraps an HMAC key.
    public init(_ hmac: HMACKey) {
        self.kid = hmac.kid
        self.algorithm = hmac.algorithm
        self.fingerprint = hmac.fingerprint
        self.material = .hmac(hmac)
        self.cachedPublicJWK = nil
    }

    /// Wraps an asymmetric key under `kid`; the JWS algorithm follows from the key's algorithm.
    ///
    /// - Throws: `JWTError.invalidKeyID` for an empty `kid`, `.cryptoFailure`.
    public init(kid: String, key: AsymmetricKey) throws(JWTError) {
        guard !kid.isEmpty else { throw .invalidKeyID }
        let algorithm: JWTAlgorithm =
            switch key.algorithm {
            case .ecdsaP256SHA256: .es256
            case .ed25519: .edDSA
            case .rsaPKCS1SHA256: .rs256
            }
        var jwk = try Self.publicComponentsJWK(of: key)
        self.fingerprint = String(try jwk.thumbprint().prefix(8))
        jwk.kid = kid
        jwk.alg = algorithm.name
        jwk.use = "sig"
        self.kid = kid
        self.algorithm = algorithm
        self.material = .asymmetric(key)
        self.cachedPublicJWK = jwk
    }

    /// Whether this key can sign: HMAC keys and ES256/EdDSA private keys (RS256 is verification only).
    public var canSign: Bool {
        switch material {
        case .hmac: true
        case .asymmetric(let key): key.isPrivate && key.algorithm != .rsaPKCS1SHA256
        }
    }

    /// The public JWK: `kty`, `kid`, `use:"sig"`, `alg` and the public members only (never `d`, `p`, `q`, `dp`,
    /// `dq`, `qi` or `k`); `nil` for HMAC keys, which are never published.
    public func publicJWK() -> JWK? {
        cachedPublicJWK
    }

    /// A new random ES256 (P-256) or EdDSA (Ed25519) private key.
    ///
    /// - Throws: `JWTError.unsupportedAlgorithm` for HS* (use `HMACKey.generateSecret`) and RS256,
    ///   `.invalidKeyID` for an empty `kid`, `.cryptoFailure`.
    public static func generate(kid: String, algorithm: JWTAlgorithm) throws(JWTError) -> JWTKey {
        guard let asymmetric = algorithm.asymmetric, asymmetric != .rsaPKCS1SHA256 else {
            throw .unsupportedAlgorithm
        }
        guard !kid.isEmpty else { throw .invalidKeyID }
        let key: AsymmetricKey
        do {
            key = try AsymmetricKey.generate(asymmetric)
        } catch {
            throw JWTError(error)
        }
        return try JWTKey(kid: kid, key: key)
    }

    /// Loads a key from PEM: PKCS#8 `PRIVATE KEY` or SEC1 `EC PRIVATE KEY` (private), SPKI `PUBLIC KEY` (public).
    ///
    /// - Parameters:
    ///   - kid: The key identifier; must not be empty.
    ///   - algorithm: ES256 (a P-256 key), EdDSA (Ed25519) or RS256 (an RSA public key of ≥ 2048 bits).
    ///   - pem: The PEM text; at most 64 KiB, one key block (an `EC PARAMETERS` block before it is skipped).
    /// - Throws: `JWTError.unsupportedAlgorithm` for HS*, `.invalidKeyID`, `.invalidKey` naming the problem (wrong
    ///   curve, point not on the curve, encrypted or malformed PEM, RSA under 2048 bits), `.cryptoFailure`.
    public init(kid: String, algorithm: JWTAlgorithm, pem: String) throws(JWTError) {
        guard let asymmetric = algorithm.asymmetric else { throw .unsupportedAlgorithm }
        let key: AsymmetricKey
        do {
            key = try AsymmetricKey(pem: pem, algorithm: asymmetric)
        } catch {
            throw JWTError(error)
        }
        try self.init(kid: kid, key: key)
    }

    /// The private key as PKCS#8 `PRIVATE KEY` PEM, for a 0600 key file.
    ///
    /// - Throws: `JWTError.unsupportedAlgorithm` for HMAC keys and public keys, `.cryptoFailure`.
    public func privateKeyPEM() throws(JWTError) -> String {
        guard case .asymmetric(let key) = material else { throw .unsupportedAlgorithm }
        do {
            return try key.privateKeyPEM()
        } catch {
            throw JWTError(error)
        }
    }

    /// The bare public members (`kty`, `crv`, `x`, `y`, `n`, `e`) of `key`.
    static func publicComponentsJWK(of key: AsymmetricKey) throws(JWTError) -> JWK {
        let components: AsymmetricKey.PublicComponents
        do {
            components = try key.publicComponents()
        } catch {
            throw JWTError(error)
        }
        switch components {
        case .p256(let x, let y):
            return JWK(kty: "EC", crv: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y))
        case .ed25519(let x):
            return JWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(x))
        case .rsa(let n, let e):
            return JWK(kty: "RSA", n: Base64URL.encode(n), e: Base64URL.encode(e))
        }
    }
}

extension JWTKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// `JWTKey(kid, alg, public|private|secret, fingerprint)`; never key material.
    public var description: String {
        let kind =
            switch material {
            case .hmac: "secret"
            case .asymmetric(let key): key.isPrivate ? "private" : "public"
            }
        return "JWTKey(kid: \(kid), alg: \(algorithm.name), \(kind), fingerprint: \(fingerprint))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }
}
