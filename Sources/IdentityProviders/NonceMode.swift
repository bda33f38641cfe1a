/// How the `nonce` claim of an ID token relates to the nonce the app sends with it.
///
/// The app makes a random nonce per sign-in, gives it (or its hash) to the provider's SDK, and sends the raw value
/// to tokenvend with the token; a token captured elsewhere then carries someone else's nonce. A nonce on one side
/// only is always refused (`nonce_missing`, `nonce_unexpected`), whatever the mode. The verifier checks only that
/// the claim and the app's nonce agree; with `identity.requireServerNonce` the service also requires the app's
/// nonce to be one it issued (`POST /auth/nonce`) and consumes it.
public enum NonceMode: String, Sendable, Hashable, CaseIterable {
    /// The token's `nonce` is the lowercase hex SHA-256 of the raw nonce the app sends (Apple; Supabase's
    /// convention for Google too, where the app hashes before handing it to the SDK).
    case sha256
    /// The token's `nonce` is the app's nonce as is (Google Sign-In).
    case raw
    /// Either of the above (a provider used by apps of both kinds). A claim of 64 lowercase hex digits is taken
    /// as the `sha256` form and matches only the hash of the app's nonce, never the app's nonce itself: otherwise
    /// anyone holding a token could send its hashed claim back as the "raw" nonce.
    case rawOrSHA256 = "raw-or-sha256"

    /// The configuration spelling: `sha256`, `raw` or `raw-or-sha256`.
    public var configName: String { rawValue }

    /// The mode spelled `configName` in the configuration; `nil` for anything else.
    public init?(configName: String) {
        self.init(rawValue: configName)
    }
}
