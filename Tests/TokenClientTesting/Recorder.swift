public import TokenClient

/// Collects what an `AsyncStream` yields (a session's events or states) in the background, so a test can look at
/// everything seen so far, or wait until something has been seen.
public final class Recorder<Element: Sendable>: Sendable {
    private let seen = Locked<[Element]>([])
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts recording `stream`.
    public init(_ stream: AsyncStream<Element>) {
        let seen = self.seen
        task.withLock {
            $0 = Task {
                for await element in stream { seen.withLock { $0.append(element) } }
            }
        }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }

    /// Everything yielded so far.
    public var elements: [Element] { seen.withLock { $0 } }

    /// Everything yielded once the stream has had `milliseconds` to deliver what is already buffered.
    public func settled(milliseconds: Int = 50) async -> [Element] {
        try? await Task.sleep(for: .milliseconds(milliseconds))
        return elements
    }

    /// Waits (up to `seconds`) until `condition` holds for what was yielded; returns what was yielded.
    @discardableResult
    public func wait(seconds: Double = 5, until condition: ([Element]) -> Bool) async -> [Element] {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        while !condition(elements), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return elements
    }
}
