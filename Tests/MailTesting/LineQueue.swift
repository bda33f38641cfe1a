public import Foundation
import Synchronization

/// The lines a child process writes to stdout, handed out in order to awaiting callers; its stderr is kept for
/// the failure message when it exits (the SMTP sink's and the fake Sign in with Apple's).
public final class LineQueue: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var lines: [String] = []
        var waiter: (id: Int, continuation: CheckedContinuation<String, any Error>)?
        var nextID = 0
        var closed = false
        var errors: [UInt8] = []
    }

    private let state = Mutex(State())

    /// Reads `output` and `errors` as the process writes them.
    public init(output: FileHandle, errors: FileHandle) {
        output.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.receive(Array(data))
        }
        errors.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            self?.state.withLock { $0.errors += Array(data) }
        }
    }

    /// The next line; fails after `deadline` (a failure bound only) or when the process closed its stdout.
    public func next(within deadline: Duration, what: String) async throws -> String {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: deadline)
            self?.fail(id, SMTPSink.Failure(description: "no \(what) within \(deadline)"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready: Result<String, any Error>? = state.withLock { state in
                if !state.lines.isEmpty { return .success(state.lines.removeFirst()) }
                if state.closed { return .failure(exited(state)) }
                state.waiter = (id, continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func receive(_ bytes: [UInt8]) {
        let continuation: (CheckedContinuation<String, any Error>, Result<String, any Error>)? = state.withLock {
            state in
            if bytes.isEmpty {
                state.closed = true
            } else {
                state.buffer += bytes
                while let newline = state.buffer.firstIndex(of: 0x0A) {
                    state.lines.append(String(decoding: state.buffer[..<newline], as: UTF8.self))
                    state.buffer.removeSubrange(...newline)
                }
            }
            guard let waiter = state.waiter else { return nil }
            if !state.lines.isEmpty {
                state.waiter = nil
                return (waiter.continuation, .success(state.lines.removeFirst()))
            }
            if state.closed {
                state.waiter = nil
                return (waiter.continuation, .failure(exited(state)))
            }
            return nil
        }
        if let (waiter, result) = continuation { waiter.resume(with: result) }
    }

    private func fail(_ id: Int, _ error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<String, any Error>? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(throwing: error)
    }

    private func exited(_ state: State) -> SMTPSink.Failure {
        SMTPSink.Failure(
            description: "the process exited: \(String(decoding: state.errors, as: UTF8.self).suffix(2000))")
    }
}
