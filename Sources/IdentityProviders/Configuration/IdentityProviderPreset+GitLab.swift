import JWT

extension IdentityProviderPreset.Defaults {
    /// GitLab.com: issuer `https://gitlab.com`, keys `https://gitlab.com/oauth/discovery/keys`, nonce `.raw`, RS256;
    /// in the browser, discovery at `https://gitlab.com/.well-known/openid-configuration` with the OpenID scopes.
    public static let gitlab = Self(
        issuers: ["https://gitlab.com"], jwksURL: "https://gitlab.com/oauth/discovery/keys", nonce: .raw,
        algorithms: [.rs256],
        browser: Browser(
            endpoints: .discovery(
                url: "https://gitlab.com/.well-known/openid-configuration", issuer: "https://gitlab.com"),
            scopes: IdentityProviderPreset.openIDScopes))
}
