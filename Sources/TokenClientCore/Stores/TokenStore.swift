/// Keeps a session's tokens. Apps on Apple platforms implement it over the Keychain; the package ships
/// ``InMemoryTokenStore`` and ``FileTokenStore``.
///
/// Calls come from the owning ``AuthSession`` actor one at a time, but an implementation must still be
/// `Sendable`. Several sessions (in one process or several) may share one store: a session re-reads it before
/// each refresh, holding ``lock()``, and adopts a pair another one rotated.
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
    /// Waits for, and takes, the store's exclusive lock across processes; the session holds it from reading the
    /// store before a refresh until the new pair is written. ``TokenStoreLock/none`` by default (no other
    /// process shares the store); ``FileTokenStore`` locks a file beside its own.
    /// - Throws: ``TokenClientError/storage(_:)`` when the lock cannot be taken (in time).
    func lock() async throws -> TokenStoreLock
}

extension TokenStore {
    /// ``TokenStoreLock/none``: a store only this process uses needs no lock across processes.
    public func lock() async throws -> TokenStoreLock { .none }
}
