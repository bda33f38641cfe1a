import JWT

/// Turns an `accessToken.keys` entry into a `JWTKey`: the HS512 secret, or the private key text of an ES256 or
/// EdDSA entry (PKCS#8/SEC1 PEM, or a private JWK), checked against the entry's `alg` by the JWT module's one
/// signing-key loader, `JWTKey(signingMaterial:kid:algorithm:)`.
enum AccessKeyMaterial {
    /// Refuses a private key whose type or curve does not match `algorithm`, an RSA key, a public-only key, or
    /// text that is neither PEM nor a JWK, with a one-line reason that never shows the key.
    static func check(
        _ text: TokenServiceConfiguration.Secret, kid: String,
        algorithm: TokenServiceConfiguration.SigningKey.Algorithm, check: ConfigurationValueCheck
    ) throws(ConfigurationError) {
        _ = try load(text, kid: kid, algorithm: algorithm, check: check)
    }

    /// The signing/verification key of a configured entry.
    /// - Throws: ``ConfigurationError/invalidValue`` naming `accessToken.keys[kid=…]` (no source: by now the
    ///   layers are merged; the same check ran with the source while loading), also for an ES256 or EdDSA entry
    ///   without a private key (never silently an HS512 key) and an HS512 entry with one.
    static func key(_ entry: TokenServiceConfiguration.SigningKey) throws(ConfigurationError) -> JWTKey {
        let check = ConfigurationValueCheck(key: "accessToken.keys[kid=\(entry.kid)]", source: "")
        switch (entry.algorithm, entry.privateKey) {
        case (.hs512, nil):
            return try load(entry.secret, kid: entry.kid, algorithm: .hs512, check: check)
        case (.hs512, .some):
            throw check.fail("an HS512 key takes secret or secretFile, not a private key; set alg to ES256 or EdDSA")
        case (let algorithm, nil):
            throw check.fail(
                "an \(algorithm.rawValue) key needs privateKey or privateKeyFile, and this one has none")
        case (let algorithm, let privateKey?):
            return try load(privateKey, kid: entry.kid, algorithm: algorithm, check: check)
        }
    }

    /// The loader's reason (`JWTError.unusableSigningKey`'s description, which never shows the key) at `check`.
    private static func load(
        _ text: TokenServiceConfiguration.Secret, kid: String,
        algorithm: TokenServiceConfiguration.SigningKey.Algorithm, check: ConfigurationValueCheck
    ) throws(ConfigurationError) -> JWTKey {
        let jwtAlgorithm: JWTAlgorithm =
            switch algorithm {
            case .hs512: .hs512
            case .es256: .es256
            case .edDSA: .edDSA
            }
        do {
            return try JWTKey(signingMaterial: text.value, kid: kid, algorithm: jwtAlgorithm)
        } catch {
            throw check.fail(error.description)
        }
    }
}
