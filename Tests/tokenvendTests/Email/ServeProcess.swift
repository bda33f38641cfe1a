import Foundation
import HTTPServerTesting
import TokenClientCore

#if canImport(Glibc)
    import Glibc
#endif

/// One `tokenvend serve` of the built binary as a child process, configured by a JSON file, on 127.0.0.1 with a
/// port the kernel picks. Its stderr is read as it comes: ``waitForLine(containing:)`` wakes on the line itself
/// (an event, not a poll), and every line is kept for the test's messages. Killed with SIGKILL when released while
/// running.
final class ServeProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The stderr lines so far, and the waiters for a line not yet seen.
    private struct Log {
        var lines: [String] = []
        var partial: [UInt8] = []
        var waiters: [(needle: String, occurrence: Int, continuation: CheckedContinuation<String, any Error>)] = []
        var ended = false
    }

    let name: String
    private let process: Process
    private let log = Locked(Log())
    /// The port, known once ``start(_:name:folder:)`` returned.
    private(set) var port = 0

    /// Launches `tokenvend serve --config <folder>/<name>.json` and waits for its "tokenvend listening" line.
    /// - Throws: ``Failure`` when the process exits first (with its stderr) or no such line comes within 60 s.
    /// - Parameter port: the port to listen on; 0 (the default) lets the system choose.
    static func start(_ configuration: [String: Any], name: String, folder: URL, port: Int = 0) async throws
        -> ServeProcess
    {
        let file = folder.appending(path: "\(name).json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys]).write(to: file)
        let server = try ServeProcess(
            name: name, arguments: ["serve", "--config", file.path, "--host", "127.0.0.1", "--port", String(port)],
            folder: folder)
        let line = try await server.waitForLine(containing: "tokenvend listening")
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let port = (object["server.port"] as? String).flatMap(Int.init)
        else { throw Failure(description: "\(name): no port in \(line)") }
        server.port = port
        return server
    }

    /// Runs `tokenvend serve` with `configuration` until it exits, for a configuration it must refuse.
    /// - Returns: the exit status and stderr.
    static func refusal(_ configuration: [String: Any], folder: URL) async throws -> (status: Int32, error: String) {
        let file = folder.appending(path: "refused.json")
        try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys]).write(to: file)
        let run = try await KeyCommandTests.tokenvend(
            ["serve", "--config", file.path, "--host", "127.0.0.1", "--port", "0"], in: folder)
        return (run.status, run.error)
    }

    private init(name: String, arguments: [String], folder: URL) throws {
        self.name = name
        process = Process()
        process.executableURL = try KeyCommandTests.executableURL()
        process.arguments = arguments
        // Only what the binary needs: every setting is in the file, none comes from the test's environment.
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        errors.fileHandleForReading.readabilityHandler = { [log] handle in
            let data = handle.availableData
            Self.append(data, to: log)
            if data.isEmpty { handle.readabilityHandler = nil }
        }
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Adds bytes (empty: end of file) to the log, resuming the waiters whose line arrived.
    private static func append(_ data: Data, to log: Locked<Log>) {
        let resumed: [(CheckedContinuation<String, any Error>, Result<String, any Error>)] = log.withLock { state in
            var done: [(CheckedContinuation<String, any Error>, Result<String, any Error>)] = []
            if data.isEmpty {
                state.ended = true
                if !state.partial.isEmpty { state.lines.append(String(decoding: state.partial, as: UTF8.self)) }
                state.partial = []
                for waiter in state.waiters {
                    let tail = state.lines.suffix(20).joined(separator: "\n")
                    done.append((waiter.continuation, .failure(Failure(description: "the server exited: \(tail)"))))
                }
                state.waiters = []
                return done
            }
            state.partial += data
            while let newline = state.partial.firstIndex(of: 0x0A) {
                let line = String(decoding: state.partial[..<newline], as: UTF8.self)
                state.partial.removeSubrange(...newline)
                state.lines.append(line)
                state.waiters.removeAll { waiter in
                    guard line.contains(waiter.needle),
                        state.lines.count(where: { $0.contains(waiter.needle) }) >= waiter.occurrence
                    else { return false }
                    done.append((waiter.continuation, .success(line)))
                    return true
                }
            }
            return done
        }
        for (continuation, result) in resumed { continuation.resume(with: result) }
    }

    /// The `occurrence`-th stderr line (counted from the start) containing `needle`, awaited as it is written;
    /// fails when the process ends without one, or after 60 s (a failure bound only).
    @discardableResult
    func waitForLine(containing needle: String, occurrence: Int = 1) async throws -> String {
        let watchdog = Task { [log] in
            try await Task.sleep(for: .seconds(60))
            let waiter: CheckedContinuation<String, any Error>? = log.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.needle == needle }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: Failure(description: "no line containing \(needle) within 60 s"))
        }
        defer { watchdog.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready: Result<String, any Error>? = log.withLock { state in
                let matching = state.lines.filter { $0.contains(needle) }
                if matching.count >= occurrence { return .success(matching[occurrence - 1]) }
                if state.ended { return .failure(Failure(description: "the server exited: \(state.lines.suffix(20))")) }
                state.waiters.append((needle, occurrence, continuation))
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Every stderr line so far.
    var logs: String { log.withLock { $0.lines.joined(separator: "\n") } }

    /// Sends `signal` (SIGKILL: `kill -9`; SIGTERM: drain and close) and reaps the process.
    @discardableResult
    func stop(with signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
