import IdentityProviders
import StrictJSON

extension ConfigurationLoader {
    /// The shortest HMAC secret accepted, in bytes: the SHA-512 block-sized key HS512 calls for.
    public static let minimumSecretBytes = 64

    /// Checks that span several keys, once every layer is applied, and fills `activeKid` with the first key's
    /// `kid` when it is unset.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the offending key.
    static func validate(_ configuration: inout TokenServiceConfiguration) throws(ConfigurationError) {
        configuration.accessToken.activeKid = try validateAccessKeys(configuration.accessToken)
        configuration.stream.activeKid = try validateKeySet(
            configuration.stream.keys, activeKid: configuration.stream.activeKid, section: "stream")
        if let secret = configuration.refreshToken.secret {
            try checkStrength(secret, key: "refreshToken.secret")
        }
        configuration.stream.vendor = try compileStream(configuration.stream)
        configuration.identity.tokenEncryptionKey = try tokenEncryptionKey(configuration.identity)
        try checkKeyReuse(configuration)
        try validateIntegrity(&configuration)
        try validateDPoP(configuration)
        try validatePasskeys(configuration)
        if configuration.identity.hasBrowserProviders, configuration.publicURL == nil {
            let name = configuration.identity.providers.first { $0.browser != nil }?.name ?? ""
            throw .invalidValue(
                key: "server.publicURL", source: "",
                reason: "missing; identityProviders.\(name) signs in through the browser, whose callback URL is "
                    + "built from it (such as https://auth.example.com)")
        }
        if configuration.refreshToken.reuseGraceSeconds >= configuration.refreshToken.ttlSeconds {
            throw .invalidValue(
                key: "refreshToken.reuseGraceSeconds", source: "",
                reason: "must be shorter than refreshToken.ttlSeconds")
        }
    }

    /// `stream.*` as the vendor entry `POST /stream-token` signs with: the `bloomreach-stream` preset over the
    /// stream keys; nil without keys.
    static func compileStream(
        _ stream: TokenServiceConfiguration.Stream
    ) throws(ConfigurationError) -> TokenServiceConfiguration.VendorSettings? {
        guard let active = stream.activeKey else { return nil }
        let keys = stream.keys.map { key in
            JSONValue.object(["kid": .string(key.kid), "secret": .string(key.secret.value)])
        }
        let entry: JSONObject = [
            "preset": "bloomreach-stream", "keys": .array(keys), "activeKid": .string(active.kid),
            "ttlSeconds": .integer(Int64(stream.ttlSeconds)), "emailCustomerId": .bool(stream.emailCustomerId),
        ]
        return try ConfigurationValueCheck(key: "stream", source: "").compileVendor(name: "stream", entry: entry)
    }

    /// Checks strength and unique `kid`s of `keys` and returns the active `kid` (`activeKid`, or the first key's).
    static func validateKeySet(
        _ keys: [TokenServiceConfiguration.SigningKey], activeKid: String?, section: String
    ) throws(ConfigurationError) -> String? {
        var seen: Set<String> = []
        for (index, key) in keys.enumerated() {
            if key.algorithm.isSymmetric { try checkStrength(key.secret, key: "\(section).keys[\(index)].secret") }
            guard seen.insert(key.kid).inserted else {
                throw .invalidValue(
                    key: "\(section).keys[\(index)].kid", source: "", reason: "duplicate kid \"\(key.kid)\"")
            }
        }
        guard let activeKid else { return keys.first?.kid }
        guard seen.contains(activeKid) else {
            let reason =
                keys.isEmpty
                ? "set to \"\(activeKid)\" but \(section).keys is empty"
                : "no key in \(section).keys has kid \"\(activeKid)\""
            throw .invalidValue(key: "\(section).activeKid", source: "", reason: reason)
        }
        return activeKid
    }

    /// ``validateKeySet(_:activeKid:section:)`` for `accessToken.keys`, plus the states: either no key gives a
    /// `state` (then `activeKid`, or the first key, is current and the others are previous, as before states
    /// existed), or every key does and exactly one is `current`; `activeKid`, if set, must name that key.
    /// Returns the current key's `kid`.
    static func validateAccessKeys(
        _ access: TokenServiceConfiguration.AccessToken
    ) throws(ConfigurationError) -> String? {
        let activeKid = try validateKeySet(access.keys, activeKid: access.activeKid, section: "accessToken")
        let stated = access.keys.filter { $0.state != nil }
        guard !stated.isEmpty else { return activeKid }
        if let missing = access.keys.first(where: { $0.state == nil }) {
            throw .invalidValue(
                key: "accessToken.keys[kid=\(missing.kid)].state", source: "",
                reason: "missing; once one key has a state every key needs one (current, standby, previous, revoked)")
        }
        let current = access.keys.filter { $0.state == .current }
        guard let first = current.first else {
            throw .invalidValue(
                key: "accessToken.keys", source: "", reason: "no key has state current; exactly one must sign")
        }
        guard current.count == 1 else {
            throw .invalidValue(
                key: "accessToken.keys[kid=\(current[1].kid)].state", source: "",
                reason: "a second key with state current (\"\(first.kid)\" is current); exactly one must sign")
        }
        if let given = access.activeKid, given != first.kid {
            throw .invalidValue(
                key: "accessToken.activeKid", source: "",
                reason: "names \"\(given)\" but the key with state current is \"\(first.kid)\"; drop activeKid")
        }
        return first.kid
    }

    static func checkStrength(_ secret: TokenServiceConfiguration.Secret, key: String) throws(ConfigurationError) {
        let count = secret.value.utf8.count
        guard count >= minimumSecretBytes else {
            throw .invalidValue(
                key: key, source: "",
                reason: "too short (\(count) bytes); at least \(minimumSecretBytes) bytes are required "
                    + "(`tokenvend keys generate` prints a suitable secret)")
        }
    }
}
