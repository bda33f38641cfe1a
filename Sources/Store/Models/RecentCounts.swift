/// One key's event counts in the most recent fixed windows of one length, as the store saw them.
public struct RecentCounts: Sendable, Equatable {
    /// Events per window, the current window first, then each earlier one; as many entries as were asked for.
    public var counts: [Int]
    /// How far into the current window the store's clock was, in milliseconds (0 ..< the window's length).
    public var elapsedMilliseconds: Int64

    /// Creates counts.
    public init(counts: [Int], elapsedMilliseconds: Int64) {
        self.counts = counts
        self.elapsedMilliseconds = elapsedMilliseconds
    }
}
