/// A ``TokenStore`` that keeps tokens in memory only (lost when the process ends). For tests, CLIs and
/// apps that must not persist tokens.
public final class InMemoryTokenStore: TokenStore {
    private let tokens: Locked<StoredTokens?>

    /// Creates a store holding `tokens` (none by default).
    public init(_ tokens: StoredTokens? = nil) {
        self.tokens = Locked(tokens)
    }

    /// The held tokens.
    public func load() -> StoredTokens? {
        tokens.withLock { $0 }
    }

    /// Replaces the held tokens.
    public func save(_ tokens: StoredTokens) {
        self.tokens.withLock { $0 = tokens }
    }

    /// Forgets the held tokens.
    public func clear() {
        tokens.withLock { $0 = nil }
    }
}
