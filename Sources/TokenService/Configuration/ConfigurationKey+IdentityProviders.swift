import Configuration

// `identityProviders` is a section whose member names are the operator's (`apple`, `google`, `corp`): it is one
// key of the table holding the whole object, checked member by member (unknown members are refused like unknown
// keys). Its layer stores the names under `identityProviders` and every member, preset applied, under
// `identityProviders.<name>.<member>`; a higher layer that gives the section replaces the whole map, since the
// names are read from the highest layer and every member of each is written.

extension ConfigurationKey {
    /// The reader values of checked providers.
    static func identityProviderValues(
        _ providers: [TokenServiceConfiguration.IdentityProviderSettings], path: String
    ) -> [(String, ConfigValue)] {
        var values: [(String, ConfigValue)] = [
            (path, ConfigValue(.stringArray(providers.map(\.name)), isSecret: false))
        ]
        for provider in providers {
            let prefix = "\(path).\(provider.name)."
            values += [
                (prefix + "preset", ConfigValue(.string(provider.preset?.rawValue ?? ""), isSecret: false)),
                (prefix + "issuers", ConfigValue(.stringArray(provider.issuers), isSecret: false)),
                (prefix + "jwksURL", ConfigValue(.string(provider.jwksURL), isSecret: false)),
                (prefix + "audiences", ConfigValue(.stringArray(provider.audiences), isSecret: false)),
                (prefix + "nonce", ConfigValue(.string(provider.nonce.rawValue), isSecret: false)),
                (prefix + "algorithms", ConfigValue(.stringArray(provider.algorithms), isSecret: false)),
                (prefix + "tenant", ConfigValue(.string(provider.tenant ?? ""), isSecret: false)),
            ]
            values += browserValues(provider.browser, prefix: prefix)
        }
        return values
    }

    /// The browser members, every one written (empty when not given) so no lower layer's value shows through.
    private static func browserValues(
        _ browser: TokenServiceConfiguration.IdentityProviderSettings.BrowserSettings?, prefix: String
    ) -> [(String, ConfigValue)] {
        func text(_ member: String, _ value: String?, secret: Bool = false) -> (String, ConfigValue) {
            (prefix + member, ConfigValue(.string(value ?? ""), isSecret: secret))
        }
        var discovery: (url: String, issuer: String)?
        var explicit: (authorization: String, token: String, userInfo: String?)?
        switch browser?.endpoints {
        case .discovery(let url, let issuer): discovery = (url, issuer)
        case .explicit(let authorization, let token, let userInfo): explicit = (authorization, token, userInfo)
        case nil: break
        }
        return [
            text("clientId", browser?.clientId),
            text("clientSecret", browser?.clientSecret?.value, secret: true),
            text("clientPrivateKey", browser?.clientPrivateKey?.value, secret: true),
            text("clientKeyId", browser?.clientKeyId),
            text("clientAuthentication", browser?.clientAuthentication.rawValue),
            (prefix + "scopes", ConfigValue(.stringArray(browser?.scopes ?? []), isSecret: false)),
            (prefix + "redirectURIs", ConfigValue(.stringArray(browser?.redirectURIs ?? []), isSecret: false)),
            text("discoveryURL", discovery?.url), text("discoveryIssuer", discovery?.issuer),
            text("authorizationURL", explicit?.authorization), text("tokenURL", explicit?.token),
            text("userInfoURL", explicit?.userInfo),
        ]
    }
}

extension TokenServiceConfiguration.Identity {
    typealias Settings = TokenServiceConfiguration.IdentityProviderSettings

    /// Reads `identity.*` and `identityProviders` from the root reader.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the entry when a listed provider lacks a member its
    ///   layer always writes (`nonce`): never a provider silently dropped.
    init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        maxTokenAgeSeconds = reader.int(forKey: "identity.maxTokenAgeSeconds") ?? maxTokenAgeSeconds
        linkVerifiedEmail = reader.bool(forKey: "identity.linkVerifiedEmail") ?? linkVerifiedEmail
        trustedForLinking = reader.stringArray(forKey: "identity.trustedForLinking") ?? trustedForLinking
        requireServerNonce = reader.bool(forKey: "identity.requireServerNonce") ?? requireServerNonce
        maxPendingNonces = reader.int(forKey: "identity.maxPendingNonces") ?? maxPendingNonces
        flowLifetimeSeconds = reader.int(forKey: "identity.flowLifetimeSeconds") ?? flowLifetimeSeconds
        maxPendingFlows = reader.int(forKey: "identity.maxPendingFlows") ?? maxPendingFlows
        maxPendingFlowsPerAddress =
            reader.int(forKey: "identity.maxPendingFlowsPerAddress") ?? maxPendingFlowsPerAddress
        let names = reader.stringArray(forKey: "identityProviders") ?? []
        for name in names {
            let entry = reader.scoped(to: ConfigKey(["identityProviders", name]))
            guard let nonce = entry.string(forKey: "nonce").flatMap(Settings.NonceMode.init(rawValue:)) else {
                throw .invalidValue(
                    key: "identityProviders.\(name)", source: "",
                    reason: "listed without its members (the configuration layers disagree); give the whole entry")
            }
            providers.append(
                Settings(
                    name: name, preset: entry.optionalString(forKey: "preset").flatMap(Settings.Preset.init(rawValue:)),
                    issuers: entry.stringArray(forKey: "issuers") ?? [], jwksURL: entry.string(forKey: "jwksURL") ?? "",
                    audiences: entry.stringArray(forKey: "audiences") ?? [], nonce: nonce,
                    algorithms: entry.stringArray(forKey: "algorithms") ?? [], browser: Self.browser(entry),
                    tenant: entry.optionalString(forKey: "tenant")))
        }
    }

    /// The browser members of one entry; nil when `clientId` is empty.
    private static func browser(_ entry: ConfigReader) -> Settings.BrowserSettings? {
        guard let clientId = entry.optionalString(forKey: "clientId") else { return nil }
        let endpoints: Settings.BrowserSettings.Endpoints
        if let url = entry.optionalString(forKey: "discoveryURL") {
            endpoints = .discovery(url: url, issuer: entry.optionalString(forKey: "discoveryIssuer") ?? url)
        } else {
            endpoints = .explicit(
                authorizationURL: entry.optionalString(forKey: "authorizationURL") ?? "",
                tokenURL: entry.optionalString(forKey: "tokenURL") ?? "",
                userInfoURL: entry.optionalString(forKey: "userInfoURL"))
        }
        let secret = entry.optionalString(forKey: "clientSecret", isSecret: true)
        let key = entry.optionalString(forKey: "clientPrivateKey", isSecret: true)
        return Settings.BrowserSettings(
            clientId: clientId, clientSecret: secret.map(TokenServiceConfiguration.Secret.init),
            clientPrivateKey: key.map(TokenServiceConfiguration.Secret.init),
            clientKeyId: entry.optionalString(forKey: "clientKeyId"),
            clientAuthentication: entry.optionalString(forKey: "clientAuthentication").flatMap(
                Settings.BrowserSettings.ClientAuthentication.init(rawValue:)) ?? .clientSecretBasic,
            scopes: entry.stringArray(forKey: "scopes") ?? [],
            redirectURIs: entry.stringArray(forKey: "redirectURIs") ?? [], endpoints: endpoints)
    }
}
