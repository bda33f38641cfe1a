import Foundation

/// A value behind a lock, for the few places the client needs synchronous, thread-safe state.
///
/// `Synchronization.Mutex` would do, but it needs iOS 18 and macOS 15; TokenClient supports iOS 16 and macOS 13,
/// so this wraps `NSLock`, which every platform has.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock, and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
