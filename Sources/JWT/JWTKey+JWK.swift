import Cryptography

extension JWTKey {
    /// Loads a key from a public or private JWK (ES256: EC P-256; EdDSA: OKP Ed25519; RS256: RSA public).
    ///
    /// - Parameters:
    ///   - jwk: The key; validated again with `JWK.validate()`.
    ///   - kid: The key identifier; default: the JWK's `kid`. When both are given they must be equal.
    ///   - algorithm: The algorithm; default: the JWK's `alg`, or the one its `kty`/`crv` implies. When both are
    ///     given they must be equal, and either must fit `kty`/`crv`.
    /// - Throws: `JWTError.invalidKey` (mismatched `kid`/`alg`, `use` other than `sig`, `key_ops` without
    ///   `sign`/`verify`, a point not on the curve, a private `d` that does not give `x`/`y`, RSA under 2048 bits
    ///   or private), `.invalidKeyID` when there is no `kid`, `.unsupportedAlgorithm` for HS*, ES384… .
    public init(jwk: JWK, kid: String? = nil, algorithm: JWTAlgorithm? = nil) throws(JWTError) {
        try jwk.validate()
        if let kid, let own = jwk.kid, kid != own { throw .invalidKey("kid does not match the JWK's kid") }
        guard let kid = kid ?? jwk.kid, !kid.isEmpty else { throw .invalidKeyID }
        let resolved = try Self.algorithm(of: jwk, requested: algorithm)
        if let use = jwk.use, use != "sig" { throw .invalidKey("use is not sig") }
        if let keyOps = jwk.keyOps, !keyOps.contains("verify"), !keyOps.contains("sign") {
            throw .invalidKey("key_ops excludes sign and verify")
        }
        let key = try Self.asymmetricKey(jwk, algorithm: resolved)
        try self.init(kid: kid, key: key)
    }

    /// The JWS algorithm for `jwk`: the requested one, the JWK's `alg`, or the one `kty`/`crv` implies.
    private static func algorithm(of jwk: JWK, requested: JWTAlgorithm?) throws(JWTError) -> JWTAlgorithm {
        var own: JWTAlgorithm?
        if let alg = jwk.alg {
            guard let parsed = JWTAlgorithm(name: alg) else { throw .unsupportedAlgorithm }
            own = parsed
        }
        if let requested, let own, requested != own { throw .invalidKey("alg does not match the JWK's alg") }
        let implied: JWTAlgorithm? =
            switch (jwk.kty, jwk.crv) {
            case ("EC", "P-256"): .es256
            case ("OKP", "Ed25519"): .edDSA
            case ("RSA", nil): .rs256
            default: nil
            }
        guard let resolved = requested ?? own ?? implied else { throw .unsupportedAlgorithm }
        guard !resolved.isSymmetric else { throw .unsupportedAlgorithm }
        guard resolved == implied else { throw .invalidKey("alg does not match kty or crv") }
        return resolved
    }
}

extension JWTKey {
    /// The OpenSSL key for a validated JWK; the decoded private bytes are wiped afterwards.
    private static func asymmetricKey(_ jwk: JWK, algorithm: JWTAlgorithm) throws(JWTError) -> AsymmetricKey {
        let isPrivate = jwk.d != nil
        var scalar: [UInt8] = isPrivate ? try jwk.bytes(jwk.d) : []
        defer { SecureMemory.cleanse(&scalar) }
        switch algorithm {
        case .es256:
            let x = try jwk.bytes(jwk.x)
            let y = try jwk.bytes(jwk.y)
            return try crypto { () throws(CryptographyError) in
                try AsymmetricKey(p256X: x, y: y, d: isPrivate ? scalar : nil)
            }
        case .edDSA:
            let x = try jwk.bytes(jwk.x)
            return try crypto { () throws(CryptographyError) in
                try AsymmetricKey(ed25519X: x, d: isPrivate ? scalar : nil)
            }
        case .rs256:
            guard !jwk.isPrivate else { throw .invalidKey("RSA private keys are not supported") }
            let n = try jwk.bytes(jwk.n)
            let e = try jwk.bytes(jwk.e)
            return try crypto { () throws(CryptographyError) in try AsymmetricKey(rsaModulus: n, exponent: e) }
        case .hs256, .hs384, .hs512:
            throw .unsupportedAlgorithm
        }
    }

    /// Runs `body`, mapping a `CryptographyError` onto `JWTError`.
    private static func crypto<T>(_ body: () throws(CryptographyError) -> T) throws(JWTError) -> T {
        do {
            return try body()
        } catch {
            throw JWTError(error)
        }
    }
}
