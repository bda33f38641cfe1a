import JWT

extension IdentityProviderPreset.Defaults {
    /// Google: issuers `https://accounts.google.com` and `accounts.google.com`, keys
    /// `https://www.googleapis.com/oauth2/v3/certs`, nonce `.raw` (Google Sign-In copies the nonce as given), RS256;
    /// in the browser, discovery at `https://accounts.google.com/.well-known/openid-configuration` with the OpenID
    /// scopes.
    public static let google = Self(
        issuers: ["https://accounts.google.com", "accounts.google.com"],
        jwksURL: "https://www.googleapis.com/oauth2/v3/certs", nonce: .raw, algorithms: [.rs256],
        browser: Browser(
            endpoints: .discovery(
                url: "https://accounts.google.com/.well-known/openid-configuration",
                issuer: "https://accounts.google.com"),
            scopes: IdentityProviderPreset.openIDScopes))
}
