#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationValueCheck {
    /// The members an `identityProviders.<name>` entry may have: the native ones and the browser flow's
    /// (``browserProviderMembers``).
    static let identityProviderMembers =
        ["algorithms", "audiences", "issuers", "jwksURL", "nonce", "preset", "tenant"] + browserProviderMembers

    /// Checks the `identityProviders` map, `{name: {preset?, issuers?, jwksURL?, audiences, nonce?,
    /// algorithms?, tenant?}}`, and applies each preset: the members given replace what the preset fills. Every error
    /// names the member (`identityProviders.apple.audiences`) and the layer.
    /// - Returns: the entries sorted by name, every member filled.
    func identityProviders(
        _ value: ConfigurationValue
    ) throws(ConfigurationError) -> [TokenServiceConfiguration.IdentityProviderSettings] {
        guard case .object(let entries) = value else {
            throw fail(
                #"expected an object of providers such as {"apple": {"preset": "apple", "audiences": [...]}}"#
                    + ", got \(value.typeName)")
        }
        var providers: [TokenServiceConfiguration.IdentityProviderSettings] = []
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard Self.isProviderName(name) else {
                throw fail(
                    "provider name \(ConfigurationValue.string(name).summary) must be 1 to 32 of a-z, 0-9, _ and -, "
                        + "starting with a letter or digit")
            }
            guard case .object(let members) = entry else {
                throw ConfigurationError.invalidValue(
                    key: "\(key).\(name)", source: source, reason: "expected an object, got \(entry.typeName)")
            }
            providers.append(try identityProvider(name: name, members))
        }
        try checkDistinctIssuers(providers)
        return providers
    }

    /// Two providers sharing an issuer and an audience are refused: one ID token would sign in through either, as
    /// two different identities.
    func checkDistinctIssuers(
        _ providers: [TokenServiceConfiguration.IdentityProviderSettings]
    ) throws(ConfigurationError) {
        func issuers(_ provider: TokenServiceConfiguration.IdentityProviderSettings) -> Set<String> {
            var all = Set(provider.issuers)
            if case .discovery(_, let issuer) = provider.browser?.endpoints { all.insert(issuer) }
            return all
        }
        for (index, provider) in providers.enumerated() {
            for earlier in providers[..<index] {
                let sharedIssuers = issuers(earlier).intersection(issuers(provider))
                let sharedAudiences = Set(earlier.audiences).intersection(provider.audiences)
                guard let issuer = sharedIssuers.sorted().first, let audience = sharedAudiences.sorted().first else {
                    continue
                }
                throw ConfigurationError.invalidValue(
                    key: "\(key).\(provider.name).audiences", source: source,
                    reason: "shares issuer \(ConfigurationValue.string(issuer).summary) and audience "
                        + "\(ConfigurationValue.string(audience).summary) with \(earlier.name): one ID token would "
                        + "sign in through either; give each provider its own audiences")
            }
        }
    }

    /// `[a-z0-9][a-z0-9_-]{0,31}`: safe in a key path, a metric label and a log line.
    static func isProviderName(_ name: String) -> Bool {
        let allowed = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        let bytes = Array(name.utf8)
        guard let first = bytes.first, allowed(first), bytes.count <= 32 else { return false }
        return bytes.allSatisfy { allowed($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private func identityProvider(
        name: String, _ members: [String: ConfigurationValue]
    ) throws(ConfigurationError) -> TokenServiceConfiguration.IdentityProviderSettings {
        typealias Settings = TokenServiceConfiguration.IdentityProviderSettings
        let entryKey = "\(key).\(name)"
        let known = Self.identityProviderMembers
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            let closest = ConfigurationKey.closest(to: unknown.lowercased(), in: known) { $0.lowercased() }
            throw ConfigurationError.unknownKey(
                key: "\(entryKey).\(unknown)", source: source, suggestion: closest.map { "\(entryKey).\($0)" })
        }
        func member(_ name: String) -> ConfigurationValueCheck { .init(key: "\(entryKey).\(name)", source: source) }
        func given(_ name: String) -> ConfigurationValue? {
            guard let value = members[name], value != .null else { return nil }
            return value
        }
        var preset: Settings.Preset?
        if let value = given("preset") {
            preset = Settings.Preset(
                rawValue: try member("preset").choice(value, of: Settings.Preset.allCases.map(\.rawValue)))
        }
        let filled = preset.map(Settings.defaults(of:))
        let presetIssuers = filled.flatMap { $0.issuers.isEmpty ? nil : $0.issuers }
        let presetKeys = filled.flatMap { $0.jwksURL.isEmpty ? nil : $0.jwksURL }
        let givenIssuers = try given("issuers").map { (value) throws(ConfigurationError) in
            try member("issuers").stringList(value)
        }
        let givenKeys = try given("jwksURL").map { (value) throws(ConfigurationError) in
            try member("jwksURL").keySetURL(value)
        }
        let issuers = givenIssuers ?? presetIssuers
        let jwksURL = givenKeys ?? presetKeys
        var browser: Settings.BrowserSettings?
        if given("clientId") != nil {
            browser = try browserSettings(
                entryKey: entryKey, given: given, preset: preset, issuers: issuers,
                sendsIDTokens: issuers != nil && jwksURL != nil)
        } else if let stray = Self.browserProviderMembers.first(where: { given($0) != nil }) {
            throw member("clientId").fail("missing; \(stray) belongs to the browser flow, which needs clientId")
        }
        if browser == nil, preset == .github {
            throw member("clientId").fail(
                "missing; the github preset signs in through the browser only: give clientId, a client secret "
                    + "and redirectURIs")
        }
        let audiences: [String]
        if let audiencesValue = given("audiences") {
            audiences = try member("audiences").stringList(audiencesValue)
        } else if let browser {
            audiences = [browser.clientId]
        } else {
            throw member("audiences").fail(
                "missing; list the app's bundle id, Services ID or OAuth client ids that tokens must be issued to")
        }
        if browser == nil {
            guard issuers != nil else {
                throw member("issuers").fail("missing; give issuers, or a preset (apple or google)")
            }
            guard jwksURL != nil else {
                throw member("jwksURL").fail("missing; give jwksURL, or a preset (apple or google)")
            }
        }
        var nonce = filled?.nonce ?? .sha256
        if let value = given("nonce") {
            let names = Settings.NonceMode.allCases.map(\.rawValue)
            nonce = Settings.NonceMode(rawValue: try member("nonce").choice(value, of: names)) ?? nonce
        }
        var algorithms = filled?.algorithms ?? ["RS256"]
        if let value = given("algorithms") {
            algorithms = try member("algorithms").providerAlgorithms(value)
        }
        var tenant: String?
        if let value = given("tenant") {
            tenant = try member("tenant").tenant(value)
        }
        return Settings(
            name: name, preset: preset, issuers: issuers ?? [], jwksURL: jwksURL ?? "", audiences: audiences,
            nonce: nonce, algorithms: algorithms, browser: browser, tenant: tenant)
    }

    /// A tenant id given to the accounts a provider creates: a string of 1 to 128 bytes, the rule of
    /// `tokenvend users set-tenant` (``AccountAdministration/isValidTenant(_:)``).
    func tenant(_ value: ConfigurationValue) throws(ConfigurationError) -> String {
        guard case .string(let text) = value else {
            throw fail("expected a tenant id, a string of 1 to 128 bytes, got \(value.typeName)")
        }
        guard AccountAdministration.isValidTenant(text) else {
            throw fail("expected a tenant id of 1 to 128 bytes, got \(text.utf8.count) bytes")
        }
        return text
    }

    /// A non-empty list of non-empty strings, without duplicates.
    func stringList(_ value: ConfigurationValue) throws(ConfigurationError) -> [String] {
        guard case .array(let items) = value else { throw fail("expected a list of strings, got \(value.summary)") }
        guard !items.isEmpty else { throw fail("expected at least one string, got an empty list") }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item, !text.trimmingWhitespace.isEmpty else {
                throw fail("item \(index + 1) is not a non-empty string: \(item.summary)")
            }
            guard !strings.contains(text) else { throw fail("item \(index + 1) repeats \(item.summary)") }
            strings.append(text)
        }
        return strings
    }

    /// A list of names, possibly empty (`identity.trustedForLinking`): non-empty strings without duplicates.
    func nameList(_ value: ConfigurationValue) throws(ConfigurationError) -> [String] {
        guard case .array(let items) = value else { throw fail("expected a list of names, got \(value.summary)") }
        return items.isEmpty ? [] : try stringList(value)
    }

    /// A JWKS URL: https, or http to a loopback host (tests, a local proxy); never with credentials.
    func keySetURL(_ value: ConfigurationValue) throws(ConfigurationError) -> String {
        let text = try string(value)
        guard let checked = MossConfiguration.parseAuthURL(text), checked.user == nil, checked.password == nil else {
            throw fail("expected an https URL (http only to localhost, 127.0.0.1 or ::1), got \(value.summary)")
        }
        return checked.absoluteString
    }

    /// A non-empty list of `RS256` and `ES256`; `none` and the HMAC algorithms are refused by name.
    func providerAlgorithms(_ value: ConfigurationValue) throws(ConfigurationError) -> [String] {
        let supported = TokenServiceConfiguration.IdentityProviderSettings.supportedAlgorithms
        let names = try stringList(value)
        for name in names where !supported.contains(name) {
            let upper = name.uppercased()
            if upper == "NONE" || upper.hasPrefix("HS") {
                throw fail(
                    "\(ConfigurationValue.string(name).summary) is never accepted for ID tokens (anyone holding "
                        + "the public key could forge them); use RS256 or ES256")
            }
            throw fail("expected RS256 or ES256, got \(ConfigurationValue.string(name).summary)")
        }
        return names
    }
}
