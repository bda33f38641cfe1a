public import Foundation
import TokenClient

/// A clock the test moves by hand.
public final class TestClock: Sendable {
    private let date: Locked<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        date = Locked(start)
    }

    public var now: Date { date.withLock { $0 } }

    /// The clock as the closure `TokenClient` types take.
    public var closure: @Sendable () -> Date { { self.now } }

    public func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
