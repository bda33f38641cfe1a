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
            ]
        }
        return values
    }
}

extension TokenServiceConfiguration.Identity {
    /// Reads `identity.*` and `identityProviders` from the root reader.
    init(reader: ConfigReader) {
        self.init()
        maxTokenAgeSeconds = reader.int(forKey: "identity.maxTokenAgeSeconds") ?? maxTokenAgeSeconds
        linkVerifiedEmail = reader.bool(forKey: "identity.linkVerifiedEmail") ?? linkVerifiedEmail
        let names = reader.stringArray(forKey: "identityProviders") ?? []
        providers = names.compactMap { name in
            let entry = reader.scoped(to: ConfigKey(["identityProviders", name]))
            guard let jwksURL = entry.string(forKey: "jwksURL"),
                let nonce = entry.string(forKey: "nonce").flatMap(
                    TokenServiceConfiguration.IdentityProviderSettings.NonceMode.init(rawValue:))
            else { return nil }
            return TokenServiceConfiguration.IdentityProviderSettings(
                name: name,
                preset: entry.string(forKey: "preset").flatMap(
                    TokenServiceConfiguration.IdentityProviderSettings.Preset.init(rawValue:)),
                issuers: entry.stringArray(forKey: "issuers") ?? [], jwksURL: jwksURL,
                audiences: entry.stringArray(forKey: "audiences") ?? [], nonce: nonce,
                algorithms: entry.stringArray(forKey: "algorithms") ?? [])
        }
    }
}
