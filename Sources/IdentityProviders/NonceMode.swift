/// How the `nonce` claim of an ID token relates to the nonce the app sends with it.
///
/// The app makes a random nonce per sign-in, gives it (or its hash) to the provider's SDK, and sends the raw value
/// to tokenvend with the token; a token captured elsewhere then carries someone else's nonce. A nonce on one side
/// only is always refused (`nonce_missing`, `nonce_unexpected`), whatever the mode.
public enum NonceMode: String, Sendable, Hashable, CaseIterable {
    /// The token's `nonce` is the lowercase hex SHA-256 of the raw nonce the app sends (Apple; Supabase's
    /// convention for Google too, where the app hashes before handing it to the SDK).
    case sha256
    /// The token's `nonce` is the app's nonce as is (Google Sign-In).
    case raw
    /// Either of the above (a provider used by apps of both kinds).
    case rawOrSHA256 = "raw-or-sha256"

    /// The configuration spelling: `sha256`, `raw` or `raw-or-sha256`.
    public var configName: String { rawValue }

    /// The mode spelled `configName` in the configuration; `nil` for anything else.
    public init?(configName: String) {
        self.init(rawValue: configName)
    }
}
