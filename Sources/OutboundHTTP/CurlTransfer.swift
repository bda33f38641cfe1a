package import CCurl
import Dispatch
import Synchronization

/// The libcurl plumbing every transfer of the project shares: outbound HTTP (``CurlExchange``) and Mail's SMTP
/// transport run their blocking `curl_easy_perform` through ``CurlTransfer``.
package enum Curl {
    /// `curl_global_init`, once per process before the first handle (a `static let` initialises once, like
    /// `dispatch_once`). Its result needs no check: `curl_easy_init` fails (and is handled) when it failed.
    private static let globalInit: CURLcode = curl_global_init(tv_curl_global_default())

    /// Where the deadline backstops run: a serial queue, so it targets Dispatch's overcommitting pool and gets a
    /// thread even when every other thread is blocked.
    static let timers = DispatchQueue(label: "tokenvend.curl.timers")

    /// Runs `curl_global_init` unless it ran; call it before `curl_easy_init`.
    package static func initialize() {
        _ = globalInit
    }

    /// Whole milliseconds, rounded up, at least 1 (0 would mean "no limit" to libcurl).
    package static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let fraction = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, Int(seconds) * 1000 + Int(fraction))
    }
}

/// One blocking libcurl transfer, answered exactly once: with what `perform` returns, at the backstop deadline,
/// or on cancellation of the calling task, whichever comes first.
///
/// `curl_easy_perform` blocks, so `perform` runs on a serial Dispatch queue of its own (a thread from Dispatch's
/// overcommitting pool), never on Swift's cooperative pool or a width-limited concurrent queue: two stalled peers
/// on two cores must not hold every other transfer. The owner's callbacks read ``isAbandoned`` and stop the
/// transfer (a progress callback returning non-zero) once the caller has its answer.
package final class CurlTransfer<Outcome: Sendable>: Sendable {
    private let abandoned = Atomic<Bool>(false)
    private let waiter = Mutex<CheckedContinuation<Outcome, Never>?>(nil)
    private let timedOut: Outcome
    private let cancelled: Outcome

    /// A transfer that answers `timedOut` at the backstop and `cancelled` when its caller is cancelled.
    package init(timedOut: Outcome, cancelled: Outcome) {
        self.timedOut = timedOut
        self.cancelled = cancelled
    }

    /// Whether the caller has its answer (the transfer should stop at its next callback).
    package var isAbandoned: Bool { abandoned.load(ordering: .relaxed) }

    /// Runs `perform` on a serial queue called `label` and returns its outcome, or `timedOut` one second after
    /// `deadline` (a backstop only: the transfer's own `CURLOPT_TIMEOUT_MS` is the deadline), or `cancelled` at
    /// once when the calling task is cancelled.
    package func run(
        label: String, deadline: Duration, _ perform: @escaping @Sendable () -> Outcome
    ) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(continuation, label: label, deadline: deadline, perform)
            }
        } onCancel: {
            abandon(cancelled)
        }
    }

    private func start(
        _ continuation: CheckedContinuation<Outcome, Never>, label: String, deadline: Duration,
        _ perform: @escaping @Sendable () -> Outcome
    ) {
        let waiting = waiter.withLock { waiter in
            // Cancelled before the continuation existed: there is nothing to run.
            guard !abandoned.load(ordering: .acquiring) else { return false }
            waiter = continuation
            return true
        }
        guard waiting else {
            continuation.resume(returning: cancelled)
            return
        }
        DispatchQueue(label: label).async {
            let outcome = perform()
            self.waiter.withLock { $0.take() }?.resume(returning: outcome)
        }
        // Held weakly, so a finished transfer is released at once.
        let backstop = DispatchTime.now() + .milliseconds(Curl.milliseconds(deadline) + 1000)
        Curl.timers.asyncAfter(deadline: backstop) { [weak self] in
            guard let self else { return }
            self.abandon(self.timedOut)
        }
    }

    /// Answers the caller with `outcome` unless it has its answer, and makes the transfer stop at its next
    /// callback.
    private func abandon(_ outcome: Outcome) {
        abandoned.store(true, ordering: .releasing)
        waiter.withLock { $0.take() }?.resume(returning: outcome)
    }
}

extension OutboundHTTPError {
    /// The error a failed libcurl transfer's result code stands for (`osErrno`: `CURLINFO_OS_ERRNO`), as outbound
    /// HTTP classifies it; Mail's SMTP transport words its connection failures with it too.
    package init(curlCode: CURLcode, osErrno: Int) {
        self = CurlExchange.error(for: curlCode, osErrno: osErrno)
    }
}
