#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Refreshes that failed in a row (each after its one immediate retry), and when the next may go out.
///
/// The wait doubles from 1 s up to 60 s, and is never shorter than the server's `Retry-After`; during it, calls
/// that need a refresh fail at once with the last error instead of adding load to a struggling server.
struct RefreshBackoff: Sendable {
    /// How many refreshes failed in a row.
    var failures: Int
    /// No refresh is sent before this instant.
    var until: Date
    /// What the last one failed with, thrown again until `until`.
    var error: TokenClientError

    /// The longest wait, whatever the count (a `Retry-After` may ask for more and gets it).
    static let maximumWait: TimeInterval = 60
    /// The longest `Retry-After` honoured.
    static let maximumRetryAfter: TimeInterval = 3600

    /// The backoff after one more failure at `now`, honouring `retryAfter` seconds when the server sent it.
    static func after(
        _ previous: RefreshBackoff?, error: TokenClientError, retryAfter: TimeInterval?, now: Date
    ) -> RefreshBackoff {
        let failures = (previous?.failures ?? 0) + 1
        let doubling = min(maximumWait, Double(1 << min(failures - 1, 16)))
        // A `Retry-After` counts up to an hour: "inf", "nan" or a year from a broken proxy must not stop refreshes
        // until the app restarts.
        let asked = retryAfter.flatMap { $0.isFinite ? min($0, maximumRetryAfter) : nil } ?? 0
        let wait = max(doubling, asked)
        return RefreshBackoff(failures: failures, until: now.addingTimeInterval(wait), error: error)
    }
}
