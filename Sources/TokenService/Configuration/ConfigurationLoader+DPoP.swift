import JWT

extension ConfigurationLoader {
    /// Checks the `dpop` section once every layer is applied: known, distinct, asymmetric algorithms; a nonce
    /// secret strong enough; `server.publicURL` when `dpop.mode` is `required` (every `htu` is compared with it).
    /// A missing nonce secret is filled in by ``prepareStorage(_:)`` (SQLite) or refused there (PostgreSQL).
    /// - Throws: ``ConfigurationError/invalidValue`` naming the key.
    static func validateDPoP(_ configuration: TokenServiceConfiguration) throws(ConfigurationError) {
        let dpop = configuration.dpop
        guard !dpop.algorithms.isEmpty else {
            throw .invalidValue(key: "dpop.algorithms", source: "", reason: "empty; list ES256, EdDSA or RS256")
        }
        for name in dpop.algorithms {
            guard let algorithm = JWTAlgorithm(name: name), !algorithm.isSymmetric else {
                throw .invalidValue(
                    key: "dpop.algorithms", source: "",
                    reason: "\"\(name)\" is not a proof algorithm; use ES256, EdDSA or RS256")
            }
        }
        if let secret = dpop.nonceSecret { try checkStrength(secret, key: "dpop.nonceSecret") }
        if dpop.mode == .required, configuration.publicURL == nil {
            throw .invalidValue(
                key: "server.publicURL", source: "",
                reason: "missing; dpop.mode required compares every proof's htu with it (such as "
                    + "https://auth.example.com)")
        }
    }
}
