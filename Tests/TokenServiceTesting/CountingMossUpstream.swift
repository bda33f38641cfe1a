import Synchronization
public import TokenService

/// A Moss upstream that hands out `moss-project-token-<n>` for an hour and counts the exchanges.
public final class CountingMossUpstream: MossUpstream {
    private let calls = Mutex(0)

    /// Creates an upstream that has not been called yet.
    public init() {}

    /// Exchanges so far.
    public var callCount: Int { calls.withLock { $0 } }

    public func fetchProjectToken() async throws(MossError) -> MossProjectToken {
        let call = calls.withLock { count in
            count += 1
            return count
        }
        return MossProjectToken(token: "moss-project-token-\(call)", expiresIn: 3600)
    }
}
