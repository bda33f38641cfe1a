import Store

/// A shared limit's window cut into `count` sub-windows (default 8): a key's events are the sum of its
/// counts in the current sub-window and the `count − 1` before it, so an event counts for between
/// (count − 1)/count of the window and the whole window, and a refusal ends, with `Retry-After` never above the
/// window, when the oldest sub-window still needed leaves it.
///
/// The store keys counters by window start (`RateLimitCounters`), so a finer window needs no schema change.
struct SubWindows: Sendable, Equatable {
    /// The limit's window in milliseconds.
    let windowMilliseconds: Int64
    /// How many sub-windows make a window. Default 8.
    let count: Int

    init(window: Duration, count: Int = 8) {
        self.windowMilliseconds = max(Int64(count), window.storeMilliseconds)
        self.count = count
    }

    /// One sub-window's length in milliseconds (`count` of them fit in the window, at most).
    var length: Int64 { windowMilliseconds / Int64(count) }

    /// One sub-window's length as the `window` the store counts in.
    var duration: Duration { .milliseconds(length) }

    /// `counts` after `milliseconds` more have passed: sub-windows that ended shift out, new empty ones in front.
    func aged(_ counts: RecentCounts, by milliseconds: Int64) -> RecentCounts {
        let position = counts.elapsedMilliseconds + max(0, milliseconds)
        let shift = Int(min(position / length, Int64(count)))
        let kept = Array(counts.counts.prefix(max(0, count - shift)))
        return RecentCounts(
            counts: Array(repeating: 0, count: min(shift, count)) + kept, elapsedMilliseconds: position % length)
    }

    /// Whether one more event fits in `limit`, given the counts (the current sub-window first; `including`: they
    /// already hold the event being judged); if not, the whole seconds (at least 1, at most the window's) until
    /// enough of the oldest sub-windows have left the window for one to fit.
    func decision(_ counts: RecentCounts, limit: Int, including: Bool) -> RateLimiter.Decision {
        let slots = Array(counts.counts.prefix(count))
        var remaining = slots.reduce(0, +) - (including ? 1 : 0)
        guard remaining + 1 > limit else { return .allowed }
        // Sub-window j (0 = current) began j sub-windows before the current one and leaves the window when the
        // current one is `count − j` sub-windows further on.
        var wait = windowMilliseconds
        for j in stride(from: slots.count - 1, through: 0, by: -1) where slots[j] > 0 {
            remaining -= slots[j]
            wait = Int64(count - j) * length - counts.elapsedMilliseconds
            if remaining + 1 <= limit { break }
        }
        return .limited(retryAfter: max(1, Int((wait + 999) / 1000)))
    }
}
