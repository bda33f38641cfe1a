/// Keeps a session's tokens. Apps on Apple platforms implement it over the Keychain; the package ships
/// ``InMemoryTokenStore`` and ``FileTokenStore``.
///
/// Calls come from the owning ``AuthSession`` actor one at a time, but an implementation must still be
/// `Sendable`.
public protocol TokenStore: Sendable {
    /// The stored tokens, or `nil` when there are none.
    /// - Throws: when the store exists but cannot be read or decoded.
    func load() throws -> StoredTokens?
    /// Replaces the stored tokens.
    /// - Throws: when they cannot be written.
    func save(_ tokens: StoredTokens) throws
    /// Removes the stored tokens; succeeds when there were none.
    /// - Throws: when they exist and cannot be removed.
    func clear() throws
}
