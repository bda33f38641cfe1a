import JWT

extension IdentityProviderPreset.Defaults {
    /// GitHub, in the browser only (it issues no ID tokens): its authorize and token endpoints, the user from
    /// `https://api.github.com/user`, scopes `read:user user:email`.
    public static let github = Self(
        issuers: [], jwksURL: nil, nonce: .raw, algorithms: [.rs256],
        browser: Browser(
            endpoints: .explicit(
                authorizationURL: "https://github.com/login/oauth/authorize",
                tokenURL: "https://github.com/login/oauth/access_token", userInfoURL: "https://api.github.com/user",
                issuer: nil, jwksURL: nil),
            scopes: ["read:user", "user:email"]))
}
