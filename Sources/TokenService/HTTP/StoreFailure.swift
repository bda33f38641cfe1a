import Store

/// How a store failure reaches the client: the one place that picks the `Retry-After` of a 503 `unavailable`
/// for each reason the store gives (API.md "Errors").
///
/// | Reason | Retry-After |
/// |---|---|
/// | `.lockTimeout` (a refresh waited on the session row past `database.lockTimeoutMilliseconds`) | 1 |
/// | `.timedOut` (no pooled connection, or no answer, within the deadline) | 1 |
/// | `.unreachable` (PostgreSQL down or restarting; the pool reconnects by itself) | 2 |
/// | any other (SQLite: disk full, read-only, I/O error, busy, closed) | the caller's default |
enum StoreFailure {
    /// Seconds for `Retry-After` when `error` makes the answer a 503.
    static func retryAfter(_ error: StoreError, default fallback: Int) -> Int {
        guard case .unavailable(let reason) = error else { return fallback }
        switch reason {
        case .lockTimeout, .timedOut: return 1
        case .unreachable: return 2
        case .diskFull, .readOnly, .ioError, .cannotOpen, .busy, .outOfMemory, .closed: return fallback
        }
    }

    /// The 503 for an unavailable store, or nil for any other failure (which the caller rethrows: a 500).
    static func unavailable(_ error: StoreError, message: String, default fallback: Int) -> ServiceError? {
        guard error.isUnavailable else { return nil }
        return .unavailable(message, retryAfter: retryAfter(error, default: fallback))
    }
}
