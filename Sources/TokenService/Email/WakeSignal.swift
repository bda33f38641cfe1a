import Synchronization

/// A wake-up for one waiting task: `wait(atMost:)` returns when `signal()` is called or the time is up, whichever
/// comes first; a signal sent while nobody waits is kept (once) for the next wait, so no wake-up is lost.
///
/// Thread-safety: every field is in `state`, under its `Mutex`; a waiter is resumed exactly once (it is taken
/// out of the state by whoever resumes it).
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
        var timer: Task<Void, Never>?
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Wakes the waiter now, or the next `wait` at once.
    func signal() {
        let (waiter, timer) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Task<Void, Never>?) in
            guard let waiter = state.waiter else {
                state.pending = true
                return (nil, nil)
            }
            state.waiter = nil
            defer { state.timer = nil }
            return (waiter, state.timer)
        }
        timer?.cancel()
        waiter?.resume()
    }

    /// Suspends until `signal()` or until `duration` has passed (one waiter at a time).
    func wait(atMost duration: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let generation = state.withLock { state -> UInt64? in
                if state.pending {
                    state.pending = false
                    return nil
                }
                state.generation &+= 1
                state.waiter = continuation
                return state.generation
            }
            guard let generation else {
                continuation.resume()
                return
            }
            let timer = Task { [weak self] in
                try? await Task.sleep(for: duration)
                self?.expire(generation)
            }
            state.withLock { state in
                if state.generation == generation, state.waiter != nil { state.timer = timer } else { timer.cancel() }
            }
        }
    }

    /// Ends the wait of `generation` when it is still the current one.
    private func expire(_ generation: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation, let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.timer = nil
            return waiter
        }
        waiter?.resume()
    }
}
