import JWT
public import StrictJSON

/// Reads the `identityProviders` section, `{name: {preset?, issuers?, jwksURL?, audiences?, nonce?, algorithms?,
/// tenant?, clientId?, …}}` (on the `apple` preset, `teamId`, `keyId`, `privateKeyFile`, `clientId`, `tokenURL` and
/// `revokeURL` configure Sign in with Apple's REST API instead of a browser flow): checks every member, applies each preset (the members given replace what the preset
/// fills) and returns the providers it configures. Every error names the member path (`apple.audiences`).
///
/// Pure but for the secret files, read through `readFile` (its error's description becomes the reason).
///
/// ```swift
/// let providers = try IdentityProviderConfiguration.parse(section: section) { path in try readSecretFile(path) }
/// ```
public enum IdentityProviderConfiguration {
    /// The members of an entry that belong to the browser flow; any of them needs `clientId`.
    public static let browserMembers = [
        "authorizationURL", "clientAuthentication", "clientId", "clientKeyId", "clientPrivateKeyFile", "clientSecret",
        "clientSecretFile", "discoveryURL", "redirectURIs", "scopes", "tokenURL", "userInfoURL",
    ]

    /// A section of one provider, for messages: `{"apple":{"preset":"apple","audiences":["com.example.app"]}}`.
    public static let example = #"{"apple":{"preset":"apple","audiences":["com.example.app"]}}"#

    /// Every member an entry may have: the native ones and ``browserMembers``.
    public static let members =
        ["algorithms", "audiences", "issuers", "jwksURL", "nonce", "preset", "tenant"] + browserMembers
        + ["keyId", "privateKeyFile", "revokeURL", "teamId"]

    /// Parses the whole section: each entry by name (sorted), then refuses two providers sharing an issuer and an
    /// audience (one ID token would sign in through either, as two different identities).
    /// - Throws: ``IdentityProviderConfigurationError``; an empty path for a section that is not an object.
    public static func parse(
        section: JSONValue, readFile: (String) throws -> String
    ) throws(IdentityProviderConfigurationError) -> [ConfiguredProvider] {
        guard case .object(let entries) = section else {
            throw .invalid(
                path: "",
                reason: #"expected an object of providers such as {"apple": {"preset": "apple", "audiences": [...]}}"#
                    + ", got \(section.typeDescription)")
        }
        var providers: [ConfiguredProvider] = []
        for member in entries.sorted(by: { $0.name < $1.name }) {
            guard isProviderName(member.name) else {
                throw .invalid(
                    path: "",
                    reason: "provider name \(JSONValue.string(member.name).summary) must be 1 to 32 of a-z, 0-9, _ "
                        + "and -, starting with a letter or digit")
            }
            guard case .object(let entry) = member.value else {
                throw .invalid(path: member.name, reason: "expected an object, got \(member.value.typeDescription)")
            }
            providers.append(try parse(name: member.name, entry: entry, readFile: readFile))
        }
        try checkDistinctIssuers(providers)
        return providers
    }

    /// `[a-z0-9][a-z0-9_-]{0,31}`: safe in a key path, a metric label and a log line.
    public static func isProviderName(_ name: String) -> Bool {
        let allowed = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        let bytes = Array(name.utf8)
        guard let first = bytes.first, allowed(first), bytes.count <= 32 else { return false }
        return bytes.allSatisfy { allowed($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// Parses one `identityProviders.<name>` entry. A member set to `null` counts as not given.
    /// - Throws: ``IdentityProviderConfigurationError`` whose path starts with `name`.
    public static func parse(
        name: String, entry: JSONObject, readFile: (String) throws -> String
    ) throws(IdentityProviderConfigurationError) -> ConfiguredProvider {
        if let unknown = entry.map(\.name).sorted().first(where: { !members.contains($0) }) {
            throw .unknownMember(path: "\(name).\(unknown)", allowed: members)
        }
        func member(_ member: String) -> Member { Member(path: "\(name).\(member)") }
        func given(_ member: String) -> JSONValue? {
            guard let value = entry[member], value != .null else { return nil }
            return value
        }
        var preset: IdentityProviderPreset?
        if let value = given("preset") {
            let names = IdentityProviderPreset.allCases.map(\.rawValue)
            preset = IdentityProviderPreset(rawValue: try member("preset").choice(value, of: names))
        }
        let filled = preset?.defaults
        let issuers =
            try given("issuers").map { (value) throws(IdentityProviderConfigurationError) in
                try member("issuers").stringList(value)
            } ?? filled.flatMap { $0.issuers.isEmpty ? nil : $0.issuers }
        let jwksURL =
            try given("jwksURL").map { (value) throws(IdentityProviderConfigurationError) in
                try member("jwksURL").url(value)
            } ?? filled?.jwksURL
        // On the apple preset, clientId and tokenURL configure Apple's REST API, never a browser flow.
        var appleREST: AppleRESTConfiguration?
        var browserGiven: (String) -> JSONValue? = given
        if preset == .apple {
            appleREST = try Self.appleREST(name: name, given: given, readFile: readFile)
            if let stray = browserMembers.first(where: { given($0) != nil && !appleRESTMembers.contains($0) }) {
                throw member(stray).fail(
                    "the apple preset has no browser flow (Apple's web flow is not supported); its clientId and "
                        + "tokenURL configure Sign in with Apple's REST API only")
            }
            browserGiven = { appleRESTMembers.contains($0) ? nil : given($0) }
        } else if let stray = ["keyId", "privateKeyFile", "revokeURL", "teamId"].first(where: { given($0) != nil }) {
            throw member(stray).fail("only on the apple preset (Sign in with Apple's REST API)")
        }
        var browser: BrowserClientConfiguration?
        if browserGiven("clientId") != nil {
            browser = try browserClient(
                name: name, given: browserGiven, preset: preset, issuers: issuers, jwksURL: jwksURL,
                readFile: readFile)
        } else if let stray = browserMembers.first(where: { browserGiven($0) != nil }) {
            throw member("clientId").fail("missing; \(stray) belongs to the browser flow, which needs clientId")
        }
        if browser == nil, preset == .github {
            throw member("clientId").fail(
                "missing; the github preset signs in through the browser only: give clientId, a client secret "
                    + "and redirectURIs")
        }
        let audiences: [String]
        if let value = given("audiences") {
            audiences = try member("audiences").stringList(value)
        } else if let browser {
            audiences = [browser.clientId]
        } else if let appleREST {
            audiences = [appleREST.clientId]
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
            let names = NonceMode.allCases.map(\.configName)
            nonce = NonceMode(configName: try member("nonce").choice(value, of: names)) ?? nonce
        }
        var algorithms = Set(filled?.algorithms ?? [.rs256])
        if let value = given("algorithms") {
            algorithms = Set(try member("algorithms").algorithms(value).compactMap(JWTAlgorithm.init(rawValue:)))
        }
        let tenant = try given("tenant").map { (value) throws(IdentityProviderConfigurationError) in
            try member("tenant").tenant(value)
        }
        var native: IdentityProvider?
        if let issuers, let jwksURL {
            do {
                native = try IdentityProvider(
                    name: name, issuers: issuers, jwksURL: jwksURL, audiences: audiences, nonce: nonce,
                    algorithms: algorithms)
            } catch {
                throw .invalid(path: name, reason: "\(error)")
            }
        }
        return ConfiguredProvider(
            name: name, preset: preset, native: native, browser: browser, audiences: audiences,
            algorithms: algorithms, tenant: tenant, appleREST: appleREST)
    }

    /// Two providers sharing an issuer and an audience are refused: one ID token would sign in through either, as
    /// two different identities.
    static func checkDistinctIssuers(_ providers: [ConfiguredProvider]) throws(IdentityProviderConfigurationError) {
        for (index, provider) in providers.enumerated() {
            for earlier in providers[..<index] {
                let sharedIssuers = earlier.issuers.intersection(provider.issuers)
                let sharedAudiences = Set(earlier.audiences).intersection(provider.audiences)
                guard let issuer = sharedIssuers.sorted().first, let audience = sharedAudiences.sorted().first else {
                    continue
                }
                throw .invalid(
                    path: "\(provider.name).audiences",
                    reason: "shares issuer \(JSONValue.string(issuer).summary) and audience "
                        + "\(JSONValue.string(audience).summary) with \(earlier.name): one ID token would "
                        + "sign in through either; give each provider its own audiences")
            }
        }
    }
}
