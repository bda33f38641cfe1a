#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Times are stored as integer milliseconds since 1970 (UTC), by SQLite and PostgreSQL alike.
extension Date {
    /// Milliseconds since 1970, rounded down.
    package var storeMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The time `storeMilliseconds` milliseconds after 1970.
    package init(storeMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(storeMilliseconds) / 1000)
    }
}

extension Duration {
    /// Whole milliseconds, rounded down, saturating: the one Duration → milliseconds rule of both backends and of
    /// the rate limiters.
    package var storeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return product.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
    }
}
