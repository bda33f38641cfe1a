import Foundation

/// One `tokenvend serve` process of the built binary, on the shared PostgreSQL database named in its
/// configuration file, listening on 127.0.0.1 with a port the kernel picks. Killed with SIGKILL when released
/// while running.
final class Instance {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `A`, `B`: names the log file.
    let name: String
    let process = Process()
    let logFile: URL
    /// The port, known after ``waitUntilReady()``.
    private(set) var port = 0

    /// Launches the process without waiting for it (so two instances can start at the same moment).
    init(name: String, configuration: URL, folder: URL) throws {
        self.name = name
        logFile = folder.appending(path: "instance-\(name).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        defer { try? log.close() }
        process.executableURL = try ChildServer.executable()
        process.arguments = ["serve", "--config", configuration.path, "--host", "127.0.0.1", "--port", "0"]
        // Only what the binary needs: every setting is in the file, none comes from the test's environment.
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log
        try process.run()
    }

    deinit {
        if process.isRunning { stop(with: SIGKILL) }
    }

    /// Waits (up to 60 s) for the "tokenvend listening" line, then for `GET /readyz` to answer 200.
    func waitUntilReady() async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while port == 0 {
            if let found = Self.listeningPort(in: logs()) {
                port = found
                break
            }
            guard process.isRunning else {
                throw Failure(
                    description: "instance \(name) exited (\(process.terminationStatus)): \(logs().suffix(2000))")
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "instance \(name) did not report its port within 60 s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        while try await client.send("GET", "/readyz").status != 200 {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "instance \(name) was not ready within 60 s: \(logs().suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A client of this instance (valid after ``waitUntilReady()``).
    var client: InstanceClient { InstanceClient(name: name, port: port) }

    /// Everything the process has written to stderr.
    func logs() -> String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` (SIGKILL: `kill -9`; SIGTERM: drain and close) and reaps the process.
    /// - Returns: the exit status, or the signal that ended it.
    @discardableResult
    func stop(with signal: Int32) -> Int32 {
        _ = kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func listeningPort(in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.contains("tokenvend listening") {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let port = (object?["server.port"] as? String).flatMap(Int.init) { return port }
        }
        return nil
    }
}
