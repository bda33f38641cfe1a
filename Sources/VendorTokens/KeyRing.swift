import Cryptography
import JWT
import StrictJSON

/// Loads a template's keys: HMAC secrets as their UTF-8 bytes, ES256/EdDSA private keys from PEM or a private JWK
/// (as `accessToken.keys` takes them). Reasons never show key material.
enum KeyRing {
    /// The loaded keys and the active `kid`, or `nil` when there are no keys.
    ///
    /// - Throws: `VendorTemplateError` at the secret's path for a short or unusable key, at `activeKid` when it
    ///   names no key.
    static func load(_ spec: TemplateSpec) throws(VendorTemplateError) -> (keys: JWTKeySet, activeKid: String)? {
        guard !spec.keys.isEmpty else {
            if spec.activeKid != nil {
                throw VendorTemplateError(path: spec.activeKidPath, reason: "names a key, but no keys are configured")
            }
            return nil
        }
        var keys: [JWTKey] = []
        for key in spec.keys { keys.append(try load(key, algorithm: spec.algorithm)) }
        let activeKid = spec.activeKid ?? spec.keys[0].kid
        guard keys.contains(where: { $0.kid == activeKid }) else {
            let kids = spec.keys.map(\.kid).joined(separator: ", ")
            throw VendorTemplateError(path: spec.activeKidPath, reason: "\"\(activeKid)\" names no key (keys: \(kids))")
        }
        do {
            return (try JWTKeySet(keys: keys, signingKID: activeKid), activeKid)
        } catch {
            throw VendorTemplateError(path: spec.activeKidPath, reason: "unusable key ring: \(error)")
        }
    }

    private static func load(_ key: KeySpec, algorithm: JWTAlgorithm) throws(VendorTemplateError) -> JWTKey {
        if algorithm.isSymmetric {
            let minimum = algorithm.hash.outputByteCount
            do {
                return JWTKey(try HMACKey(kid: key.kid, algorithm: algorithm, secret: key.material))
            } catch .weakKey {
                throw VendorTemplateError(
                    path: key.materialPath,
                    reason: "shorter than \(minimum) bytes, the least \(algorithm.name) takes (counted as UTF-8)")
            } catch {
                throw VendorTemplateError(
                    path: key.materialPath, reason: "unusable \(algorithm.name) secret (\(error))")
            }
        }
        return try privateKey(key, algorithm: algorithm)
    }

    /// A PEM (PKCS#8 or SEC1) or private-JWK key that can sign with `algorithm`.
    private static func privateKey(_ key: KeySpec, algorithm: JWTAlgorithm) throws(VendorTemplateError) -> JWTKey {
        func fail(_ reason: String) -> VendorTemplateError {
            VendorTemplateError(path: key.materialPath, reason: reason)
        }
        let text = key.material
        if text.contains("RSA PRIVATE KEY") { throw fail("RSA keys cannot sign here; use an \(algorithm.name) key") }
        let loaded: JWTKey
        do {
            if text.hasPrefix("{") {
                let jwk = try JWK(json: Array(text.utf8))
                if jwk.kty == "RSA" { throw fail("RSA keys cannot sign here; use an \(algorithm.name) key") }
                guard jwk.isPrivate else { throw fail("the JWK is a public key; give the private JWK (with d)") }
                // The configured kid names the key; a JWK's own kid must agree with it.
                loaded = try JWTKey(jwk: jwk, kid: key.kid, algorithm: algorithm)
            } else if text.hasPrefix("-----BEGIN") {
                loaded = try JWTKey(kid: key.kid, algorithm: algorithm, pem: text)
            } else {
                throw fail("expected a PEM private key (-----BEGIN PRIVATE KEY-----) or a private JWK object")
            }
        } catch let error as VendorTemplateError {
            throw error
        } catch JWTError.unsupportedAlgorithm {
            throw fail("not a usable \(algorithm.name) private key: its key type or curve does not fit")
        } catch let error as JWTError {
            throw fail("not a usable \(algorithm.name) private key: \(error)")
        } catch {
            throw fail("not a usable \(algorithm.name) private key")
        }
        guard loaded.canSign else {
            throw fail("a public key cannot sign; give the private key (PKCS#8 PEM or a JWK with d)")
        }
        return loaded
    }
}
