import JWT

/// Turns an `accessToken.keys` entry into a `JWTKey`: the HS512 secret, or the private key text of an ES256 or
/// EdDSA entry (PKCS#8/SEC1 PEM, or a private JWK), checked against the entry's `alg`.
enum AccessKeyMaterial {
    /// Refuses a private key whose type or curve does not match `algorithm`, an RSA key, a public-only key, or
    /// text that is neither PEM nor a JWK, with a one-line reason that never shows the key.
    static func check(
        _ text: TokenServiceConfiguration.Secret, kid: String,
        algorithm: TokenServiceConfiguration.SigningKey.Algorithm, check: ConfigurationValueCheck
    ) throws(ConfigurationError) {
        _ = try privateKey(text, kid: kid, algorithm: algorithm, check: check)
    }

    /// The signing/verification key of a configured entry.
    /// - Throws: ``ConfigurationError/invalidValue`` naming `accessToken.keys[kid=…]` (no source: by now the
    ///   layers are merged; the same check ran with the source while loading), also for an ES256 or EdDSA entry
    ///   without a private key (never silently an HS512 key) and an HS512 entry with one.
    static func key(_ entry: TokenServiceConfiguration.SigningKey) throws(ConfigurationError) -> JWTKey {
        let check = ConfigurationValueCheck(key: "accessToken.keys[kid=\(entry.kid)]", source: "")
        switch (entry.algorithm, entry.privateKey) {
        case (.hs512, nil):
            do {
                return JWTKey(try HMACKey(kid: entry.kid, algorithm: .hs512, secret: entry.secret.value))
            } catch {
                throw check.fail("unusable HS512 secret (\(error))")
            }
        case (.hs512, .some):
            throw check.fail("an HS512 key takes secret or secretFile, not a private key; set alg to ES256 or EdDSA")
        case (let algorithm, nil):
            throw check.fail(
                "an \(algorithm.rawValue) key needs privateKey or privateKeyFile, and this one has none")
        case (let algorithm, let privateKey?):
            return try self.privateKey(privateKey, kid: entry.kid, algorithm: algorithm, check: check)
        }
    }

    private static func privateKey(
        _ text: TokenServiceConfiguration.Secret, kid: String,
        algorithm: TokenServiceConfiguration.SigningKey.Algorithm, check: ConfigurationValueCheck
    ) throws(ConfigurationError) -> JWTKey {
        let value = text.value
        let jwtAlgorithm: JWTAlgorithm = algorithm == .es256 ? .es256 : .edDSA
        if value.contains("RSA PRIVATE KEY") {
            throw check.fail("RSA keys are not allowed for signing access tokens; use an ES256 or EdDSA key")
        }
        let key: JWTKey
        do {
            if value.hasPrefix("{") {
                let jwk = try JWK(json: Array(value.utf8))
                if jwk.kty == "RSA" {
                    throw check.fail("RSA keys are not allowed for signing access tokens; use an ES256 or EdDSA key")
                }
                guard jwk.isPrivate else { throw check.fail("the JWK is a public key; give the private JWK (with d)") }
                // The configured kid names the key; a JWK's own kid must agree with it.
                key = try JWTKey(jwk: jwk, kid: kid, algorithm: jwtAlgorithm)
            } else if value.hasPrefix("-----BEGIN") {
                key = try JWTKey(kid: kid, algorithm: jwtAlgorithm, pem: value)
            } else {
                throw check.fail("expected a PEM private key (-----BEGIN PRIVATE KEY-----) or a private JWK object")
            }
        } catch let error as ConfigurationError {
            throw error
        } catch let error as JWTError {
            throw check.fail("not a usable \(algorithm.rawValue) private key: \(reason(error, algorithm: algorithm))")
        } catch {
            throw check.fail("not a usable \(algorithm.rawValue) private key")
        }
        guard key.canSign else {
            throw check.fail("a public key cannot sign; give the private key (PKCS#8 PEM or a JWK with d)")
        }
        return key
    }

    /// The JWT library's reason, which never contains key material (`JWTError.invalidKey` promises it).
    private static func reason(_ error: JWTError, algorithm: TokenServiceConfiguration.SigningKey.Algorithm) -> String {
        switch error {
        case .unsupportedAlgorithm: "its key type or curve does not fit \(algorithm.rawValue)"
        default: error.description
        }
    }
}
