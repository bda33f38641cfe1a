import Foundation
import Testing
import TokenServiceTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `tokenvend` executable running `serve --port 0` as a child process on a given database, with
/// cheap Argon2id and its stderr appended to a log file. Killed with SIGKILL when released while running.
final class ChildServer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let process = Process()
    let port: Int
    private let logFile: URL

    /// Starts the server and waits (up to 60 s) for its "tokenvend listening" line.
    /// - Throws: ``Failure`` when the binary is missing, exits early or never says where it listens.
    init(database: URL, logFile: URL, environment extra: [String: String] = [:]) throws {
        self.logFile = logFile
        if !FileManager.default.fileExists(atPath: logFile.path) {
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logFile)
        let start = try log.seekToEnd()
        defer { try? log.close() }
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TOKENVEND_PASSWORD_TIME_COST": "1",
            "TOKENVEND_PASSWORD_MEMORY_COST": "8192",
            "TOKENVEND_LOG_FORMAT": "json",
            "TOKENVEND_LOG_LEVEL": "info",
        ]
        environment.merge(extra) { _, new in new }
        process.executableURL = try Self.executable()
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--database", database.path]
        process.environment = environment
        // Away from the package root, so its Config/tokenvend.json is not picked up.
        process.currentDirectoryURL = database.deletingLastPathComponent()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log
        try process.run()
        port = try Self.waitForPort(in: logFile, after: start, process: process)
    }

    deinit {
        if process.isRunning { stop(with: SIGKILL) }
    }

    /// Sends `signal` (SIGKILL: `kill -9`; SIGTERM: drain and close the database) and reaps the process.
    /// - Returns: the exit status, or the signal that ended it.
    @discardableResult
    func stop(with signal: Int32) -> Int32 {
        _ = kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The built executable beside the test bundle, else `.build/debug/tokenvend` under the working directory.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let argument = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: argument).deletingLastPathComponent()
            // On macOS the bundle is a folder: …/debug/tokenvendPackageTests.xctest/Contents/MacOS/…
            while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
            candidates.append(folder.appending(path: "tokenvend"))
        }
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        candidates.append(root.appending(path: ".build/debug/tokenvend"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure(
                description: "the tokenvend executable is missing (looked at \(candidates.map(\.path))); "
                    + "build it first with `swift build --build-tests` (`make test` does)")
        }
        return found
    }

    private static func waitForPort(in logFile: URL, after offset: UInt64, process: Process) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let data = (try? Data(contentsOf: logFile)) ?? Data()
            let text = String(decoding: data.dropFirst(Int(offset)), as: UTF8.self)
            for line in text.split(separator: "\n") where line.contains("tokenvend listening") {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let port = (object?["server.port"] as? String).flatMap(Int.init) { return port }
            }
            guard process.isRunning else {
                throw Failure(
                    description: "tokenvend serve exited (\(process.terminationStatus)): \(text.suffix(2000))")
            }
            usleep(20_000)
        }
        throw Failure(description: "tokenvend serve did not report its port within 60 s")
    }
}

/// A minimal JSON-over-HTTP client for the child server, on the suite's one ``TestSession``.
struct ChildClient: Sendable {
    /// An answer: status and the decoded JSON object (empty when there is none).
    struct Answer: @unchecked Sendable {  // `object` holds only JSONSerialization values, never mutated.
        var status: Int
        var object: [String: Any]

        var refreshToken: String? { object["refreshToken"] as? String }
        var accessToken: String? { object["accessToken"] as? String }
    }

    let port: Int

    /// Sends one request. Throws on transport errors (the server died, refused the connection…).
    func send(_ method: String, _ path: String, bearer: String? = nil, json: String? = nil) async throws -> Answer {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await TestSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let object = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        return Answer(status: status, object: object)
    }

    func refresh(_ token: String) async throws -> Answer {
        try await send("POST", "/auth/refresh", json: #"{"refreshToken":"\#(token)"}"#)
    }

    func credentials(_ email: String, _ password: String) -> String {
        #"{"email":"\#(email)","password":"\#(password)"}"#
    }
}
