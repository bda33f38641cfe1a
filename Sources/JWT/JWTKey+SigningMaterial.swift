import Cryptography

extension JWTKey {
    /// Loads a key that signs with `algorithm` from configuration text: the one rule for every configured signing
    /// key (`accessToken.keys`, `vendors.<name>.keys`).
    ///
    /// For HS256/384/512 the text is the secret, used as its UTF-8 bytes. For ES256 and EdDSA it is a private key:
    /// PEM (PKCS#8 `PRIVATE KEY` or SEC1 `EC PRIVATE KEY`) or a private JWK as JSON text; a JWK's own `kid` must
    /// equal `kid`.
    ///
    /// ```swift
    /// let key = try JWTKey(signingMaterial: pemText, kid: "2026-01", algorithm: .es256)
    /// ```
    ///
    /// - Throws: `JWTError.unusableSigningKey(algorithm, problem)`, where the problem says why:
    ///   `.secretTooShort` (fewer UTF-8 bytes than the hash output), `.rsaKey` (an RSA key, or RS256, which only
    ///   verifies), `.publicJWK` and `.publicKey` (no private part), `.keyTypeMismatch` (a key the library does
    ///   not sign with for `algorithm`), `.notPEMOrJWK`, `.unusable` (anything else, such as another key type or
    ///   curve, with the library's reason). Its description is the operator's one-line reason and never shows
    ///   the key.
    public init(signingMaterial text: String, kid: String, algorithm: JWTAlgorithm) throws(JWTError) {
        do {
            self = try Self.signing(text, kid: kid, algorithm: algorithm)
        } catch {
            throw .unusableSigningKey(algorithm, error)
        }
    }

    private static func signing(
        _ text: String, kid: String, algorithm: JWTAlgorithm
    ) throws(SigningKeyProblem) -> JWTKey {
        if algorithm.isSymmetric {
            do {
                return JWTKey(try HMACKey(kid: kid, algorithm: algorithm, secret: text))
            } catch .weakKey {
                throw .secretTooShort(minimumBytes: algorithm.hash.outputByteCount)
            } catch {
                throw .unusable(error.description)
            }
        }
        guard algorithm != .rs256, !text.contains("RSA PRIVATE KEY") else { throw .rsaKey }
        let key: JWTKey
        do {
            if text.hasPrefix("{") {
                let jwk = try JWK(json: Array(text.utf8))
                guard jwk.kty != "RSA" else { throw SigningKeyProblem.rsaKey }
                guard jwk.isPrivate else { throw SigningKeyProblem.publicJWK }
                key = try JWTKey(jwk: jwk, kid: kid, algorithm: algorithm)
            } else if text.hasPrefix("-----BEGIN") {
                key = try JWTKey(kid: kid, algorithm: algorithm, pem: text)
            } else {
                throw SigningKeyProblem.notPEMOrJWK
            }
        } catch let problem as SigningKeyProblem {
            throw problem
        } catch JWTError.unsupportedAlgorithm {
            throw .keyTypeMismatch
        } catch {
            throw .unusable(String(describing: error))
        }
        guard key.canSign else { throw .publicKey }
        return key
    }
}
