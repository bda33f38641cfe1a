#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A cached value that says when a cache stops serving it.
protocol Refreshable: Sendable {
    /// When the cache fetches a replacement instead of serving this value.
    var refreshAt: Date { get }
}

extension ExpiringToken: Refreshable {}

/// Caches one token (an ``ExpiringToken``, or a vended credential holding one) until its `refreshAt` and
/// coalesces concurrent fetches onto one task.
///
/// A fetch is an unstructured task: a caller that is cancelled does not cancel it for the others.
/// A failed fetch is not cached; the next caller tries again.
actor TokenCache<Value: Refreshable> {
    private let now: @Sendable () -> Date
    private var cached: Value?
    private var inFlight: (id: UInt64, task: Task<Value, any Error>)?
    private var nextID: UInt64 = 0
    /// Whose token is cached (see ``token(owner:fetch:)``).
    private var owner: String?

    init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The cached token while `now < refreshAt`, else the result of the fetch in flight or of a new one.
    /// - Parameter owner: who the token is for (the signed-in user); when it differs from the owner of the
    ///   cached token or of the fetch in flight, both are dropped, so one user never gets another's token.
    func token(
        owner: String? = nil, fetch: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        if owner != self.owner {
            invalidate()
            self.owner = owner
        }
        if let cached, now() < cached.refreshAt { return cached }
        if let inFlight { return try await inFlight.task.value }
        nextID += 1
        let id = nextID
        let task = Task { try await fetch() }
        inFlight = (id, task)
        defer {
            if inFlight?.id == id { inFlight = nil }
        }
        let fetched = try await task.value
        if inFlight?.id == id { cached = fetched }
        return fetched
    }

    /// The cached token, fresh or not, without fetching.
    var current: Value? { cached }

    /// Drops the cached token and detaches any fetch in flight, so the next caller fetches anew.
    func invalidate() {
        cached = nil
        inFlight = nil
    }
}
