import JWT
import VendorTokens

extension ConfigurationLoader {
    /// One configured key: where it is written and whose it is.
    struct KeyPlace {
        /// The configuration key naming it, such as `accessToken.keys[kid=2026-01].secret` or `vendors.chat.apiSecret`.
        var name: String
        /// The purpose it serves (`accessToken`, `refreshToken`, `stream`, `vendors.<name>`): one key may appear
        /// several times within one purpose, never in two.
        var owner: String
        var identity: KeyMaterialIdentity
    }

    /// Refuses one secret or private key used for two purposes: access tokens (every `accessToken.keys` entry, in
    /// any state), refresh tokens (`refreshToken.secret`), stream tokens (`stream.keys`) and each vendor's keys.
    ///
    /// A key shared between them lets whoever holds one purpose's tokens, or its key (a vendor's secret is also
    /// known to the vendor), make tokens of the other: a vendor could mint access tokens, a stream token could
    /// pass for one. Keys are compared by material, not text (a PEM and a JWK of one key are the same key); the
    /// error names both places and never the key.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the second place and, in the reason, the first.
    static func checkKeyReuse(_ configuration: TokenServiceConfiguration) throws(ConfigurationError) {
        var seen: [KeyMaterialIdentity: KeyPlace] = [:]
        for place in try keyPlaces(configuration) {
            if let first = seen[place.identity] {
                guard first.owner != place.owner else { continue }
                throw .invalidValue(
                    key: place.name, source: "",
                    reason: "the same key as \(first.name); access tokens, refresh tokens, stream tokens and each "
                        + "vendor need keys of their own (`tokenvend keys generate` prints a new secret)")
            }
            seen[place.identity] = place
        }
    }

    /// Every configured key with its identity, in a fixed order: access, refresh, stream, then vendors by name.
    static func keyPlaces(_ configuration: TokenServiceConfiguration) throws(ConfigurationError) -> [KeyPlace] {
        var places: [KeyPlace] = []
        func secret(_ name: String, _ owner: String, _ value: TokenServiceConfiguration.Secret) {
            if let identity = KeyMaterialIdentity(secret: value.bytes) {
                places.append(KeyPlace(name: name, owner: owner, identity: identity))
            }
        }
        for entry in configuration.accessToken.keys {
            let name = "accessToken.keys[kid=\(entry.kid)]"
            if entry.algorithm.isSymmetric {
                secret(name + ".secret", "accessToken", entry.secret)
            } else if let identity = KeyMaterialIdentity(publicKeyOf: try AccessKeyMaterial.key(entry)) {
                places.append(KeyPlace(name: name + ".privateKey", owner: "accessToken", identity: identity))
            }
        }
        if let refresh = configuration.refreshToken.secret { secret("refreshToken.secret", "refreshToken", refresh) }
        for (index, key) in configuration.stream.keys.enumerated() {
            secret("stream.keys[\(index)].secret", "stream", key.secret)
        }
        for vendor in configuration.vendors {
            let entryKey = "vendors.\(vendor.name)"
            guard case .template(let template) = vendor.entry else { continue }
            for (path, identity) in template.keyIdentities.sorted(by: { $0.key < $1.key }) {
                places.append(KeyPlace(name: "\(entryKey).\(path)", owner: entryKey, identity: identity))
            }
        }
        return places
    }
}
