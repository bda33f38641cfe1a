import Cryptography
import JWT
import StrictJSON

/// Loads a template's keys with the JWT module's one signing-key loader, `JWTKey(signingMaterial:kid:algorithm:)`:
/// HMAC secrets as their UTF-8 bytes, ES256/EdDSA private keys from PEM or a private JWK (as `accessToken.keys`
/// takes them). Reasons never show key material.
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

    /// One key through the JWT module's one signing-key loader; its reason never shows the key.
    private static func load(_ key: KeySpec, algorithm: JWTAlgorithm) throws(VendorTemplateError) -> JWTKey {
        do {
            return try JWTKey(signingMaterial: key.material, kid: key.kid, algorithm: algorithm)
        } catch {
            throw VendorTemplateError(path: key.materialPath, reason: error.description)
        }
    }
}
