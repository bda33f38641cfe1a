public import TokenClient

/// A ``TokenStore`` that can be locked like the Keychain before the first unlock (every call throws
/// ``TokenClientError/storageLocked``) and made to refuse writes; it counts what the session asked of it.
public final class LockableTokenStore: TokenStore {
    public struct State: Sendable {
        public var tokens: StoredTokens?
        /// Every call throws ``TokenClientError/storageLocked``.
        public var isLocked = false
        /// `save` throws ``TokenClientError/storage(_:)`` (a full disk, a Keychain error).
        public var failsSaves = false
        public var loads = 0
        public var saves = 0
        public var clears = 0
        public var locks = 0
    }

    package let state: Locked<State>

    /// A store holding `tokens`, locked when `isLocked`.
    public init(_ tokens: StoredTokens? = nil, isLocked: Bool = false) {
        state = Locked(State(tokens: tokens, isLocked: isLocked))
    }

    /// A copy of the store's state.
    public var current: State { state.withLock { $0 } }

    /// The tokens held, whether locked or not (what the Keychain holds underneath).
    public var tokens: StoredTokens? { state.withLock { $0.tokens } }

    /// Changes the store's knobs.
    public func configure(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    public func load() throws -> StoredTokens? {
        try state.withLock { state in
            state.loads += 1
            guard !state.isLocked else { throw TokenClientError.storageLocked }
            return state.tokens
        }
    }

    public func save(_ tokens: StoredTokens) throws {
        try state.withLock { state in
            state.saves += 1
            guard !state.isLocked else { throw TokenClientError.storageLocked }
            guard !state.failsSaves else { throw TokenClientError.storage("the test store refuses writes") }
            state.tokens = tokens
        }
    }

    public func clear() throws {
        try state.withLock { state in
            state.clears += 1
            guard !state.isLocked else { throw TokenClientError.storageLocked }
            state.tokens = nil
        }
    }

    public func lock() async throws -> TokenStoreLock {
        state.withLock { $0.locks += 1 }
        return .none
    }
}
