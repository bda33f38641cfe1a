import JWT

/// The access-token keys by state (docs/operations/keys.md "Key rotation"): the `current` key signs; `current` and
/// `previous` verify; `current`, `standby` and `previous` ES256/EdDSA keys are published, in that order;
/// `revoked` keys are neither. A token whose `kid` is standby or revoked is refused like an unknown one, since
/// its key is not in ``verification``.
struct AccessKeyRing: Sendable {
    /// The keys that verify, signing with the current one.
    let verification: JWTKeySet
    /// The public keys of `/.well-known/jwks.json`, current first, then standby, then previous.
    let published: JWKSet
    /// The `alg` of each published key, in the same order.
    let publishedAlgorithms: [String]
    /// `kid alg state fingerprint` of every configured key, for the start-up log line; never key material.
    let summary: String

    /// Builds the ring from a loaded configuration.
    /// - Throws: ``ConfigurationError`` for a key that cannot be used (the loader checked them already) or no
    ///   current key (a configuration that did not go through `ConfigurationLoader`).
    init(_ access: TokenServiceConfiguration.AccessToken) throws(ConfigurationError) {
        var byState: [TokenServiceConfiguration.SigningKey.State: [JWTKey]] = [:]
        var lines: [String] = []
        for entry in access.keys {
            let key = try AccessKeyMaterial.key(entry)
            let state = access.state(of: entry)
            byState[state, default: []].append(key)
            lines.append("\(key.kid) \(key.algorithm.name) \(state.rawValue) \(key.fingerprint)")
        }
        summary = lines.joined(separator: ", ")
        guard let current = byState[.current]?.first else {
            throw .invalidValue(key: "accessToken.keys", source: "", reason: "no key has state current")
        }
        let verifying = [current] + (byState[.previous] ?? [])
        do {
            verification = try JWTKeySet(keys: verifying, signingKID: current.kid)
        } catch {
            throw .invalidValue(key: "accessToken.keys", source: "", reason: "unusable key set (\(error))")
        }
        let publishable = [current] + (byState[.standby] ?? []) + (byState[.previous] ?? [])
        let publicKeys = publishable.compactMap { key in key.publicJWK().map { (key.algorithm.name, $0) } }
        published = JWKSet(keys: publicKeys.map(\.1))
        publishedAlgorithms = publicKeys.map(\.0)
    }
}

extension TokenServiceConfiguration.AccessToken {
    /// The `{"keys":[…]}` that `/.well-known/jwks.json` serves with these keys (`tokenvend keys jwks`); an empty
    /// set when no key is configured (development keys are HS512, never published).
    /// - Throws: ``ConfigurationError`` for a key that cannot be used.
    public func publishedKeySet() throws(ConfigurationError) -> [UInt8] {
        guard !keys.isEmpty else { return JWKSet(keys: []).serialized() }
        return try AccessKeyRing(self).published.serialized()
    }
}
