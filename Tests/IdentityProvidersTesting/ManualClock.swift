import Synchronization

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A clock the test moves by hand, for `ProviderKeyCache(clock:)`: no sleeps.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// Starts at `start`.
    public init(_ start: Date) {
        current = Mutex(start)
    }

    /// The current time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The closure to hand to the cache.
    public var closure: @Sendable () -> Date { { [self] in now } }
}
