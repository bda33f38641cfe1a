import JWT

extension IdentityProviderPreset.Defaults {
    /// Sign in with Apple: issuer `https://appleid.apple.com`, keys `https://appleid.apple.com/auth/keys`, nonce
    /// `.sha256` (Apple puts the SHA-256 of the nonce the app passed to `ASAuthorizationAppleIDRequest`), RS256.
    /// Apple's web flow is not supported here.
    public static let apple = Self(
        issuers: ["https://appleid.apple.com"], jwksURL: "https://appleid.apple.com/auth/keys", nonce: .sha256,
        algorithms: [.rs256], browser: nil)
}
