public import Foundation
import Synchronization

/// A test script of scripts/ (`python3 <script> --port N …`) as a child process that prints `PORT <n>` once
/// listening, then one line per event: the SMTP sink's and the fake Sign in with Apple's process.
///
/// ``start(_:port:arguments:)`` returns once the `PORT` line came (an event, never a sleep); ``stop()`` kills the
/// process with SIGKILL and keeps the port for a restart on it. Thread-safety: the state is behind a `Mutex`.
public final class ScriptProcess: Sendable {
    private struct State {
        var process: Process?
        var lines: LineQueue?
        var port = 0
    }

    private let state = Mutex(State())

    /// A process not started yet.
    public init() {}

    deinit {
        stop()
    }

    /// The port it listens on (the last one, after ``stop()``).
    public var port: Int { state.withLock { $0.port } }

    /// Its output lines after the `PORT` line; nil while stopped.
    public var lines: LineQueue? { state.withLock { $0.lines } }

    /// Starts `scriptPath` again (after ``stop()``) on `port` (0: any) with `arguments`, and waits for its `PORT`
    /// line.
    public func start(_ scriptPath: String, port: Int, arguments: [String]) async throws {
        stop()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptPath, "--port", String(port)] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let lines = LineQueue(output: output.fileHandleForReading, errors: errors.fileHandleForReading)
        try process.run()
        state.withLock {
            $0.process = process
            $0.lines = lines
        }
        let name = URL(fileURLWithPath: scriptPath).lastPathComponent
        let first = try await lines.next(within: .seconds(30), what: "\(name)'s PORT line")
        guard first.hasPrefix("PORT "), let actual = Int(first.dropFirst(5)) else {
            throw SMTPSink.Failure(description: "\(name) printed \(first) instead of its PORT line")
        }
        state.withLock { $0.port = actual }
    }

    /// Kills the process; the port stays known for a restart.
    public func stop() {
        let process = state.withLock { state in
            defer {
                state.process = nil
                state.lines = nil
            }
            return state.process
        }
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The path of `scripts/<name>` in the package, from `file` (a `#filePath` two folders below the root).
    public static func scriptPath(_ name: String, from file: String) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/\(name)").path
    }
}
