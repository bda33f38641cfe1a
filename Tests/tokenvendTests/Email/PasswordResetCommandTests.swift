import Foundation
import Testing
import TokenClientCore
import TokenClientTesting

/// `tokenvend password-reset`, the built binary, against a `tokenvend serve` child process whose mail goes to the
/// `file` transport: the code is read from the message file the server names in its log.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PasswordResetCommandTests {
    @Test("password-reset emails a code, reads it and the new password from stdin, signs in and ends old sessions")
    func resetsAndSignsIn() async throws {
        let fixture = try EmailServerFixture()
        let server = try await Self.fileTransportServer(fixture, name: "reset")
        defer { server.stop(with: SIGKILL) }
        let client = ServeClient(port: server.port)
        let email = "cli-reset@example.com"
        try await client.register(email, EmailServerFixture.password)
        let before = try await client.post("/auth/login", ["email": email, "password": EmailServerFixture.password])
        let oldRefresh = try #require(before.refreshToken)

        let sessionFile = fixture.folder.url.appending(path: "config/session.json")
        let command = try CommandProcess.passwordReset(
            email, server: server, sessionFile: sessionFile, in: fixture.folder.url)
        let code = try await EmailServerFixture.codeFromFileTransport(server)
        let newPassword = "a brand new passphrase 2026"
        let run = try await command.finish(stdin: "\(code)\n\(newPassword)\n")
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("password changed; signed in as \(email) (id "))
        #expect(!run.output.contains(code) && !run.error.contains(newPassword))
        let stored = try #require(try FileTokenStore(url: sessionFile).load())
        #expect(try await client.send("GET", "/auth/me", bearer: stored.accessToken).status == 200)
        let refresh = try await client.post("/auth/refresh", ["refreshToken": oldRefresh])
        #expect(refresh.status == 401)
        #expect(try await client.post("/auth/login", ["email": email, "password": newPassword]).status == 200)
    }

    @Test("a wrong code exits 1 naming invalid_code, and stores no session")
    func wrongCode() async throws {
        let fixture = try EmailServerFixture()
        let server = try await Self.fileTransportServer(fixture, name: "wrong")
        defer { server.stop(with: SIGKILL) }
        let email = "cli-wrong@example.com"
        try await ServeClient(port: server.port).register(email, EmailServerFixture.password)
        let sessionFile = fixture.folder.url.appending(path: "session.json")
        let command = try CommandProcess.passwordReset(
            email, server: server, sessionFile: sessionFile, in: fixture.folder.url)
        let code = try await EmailServerFixture.codeFromFileTransport(server)
        let wrong = code == "000000" ? "111111" : "000000"
        let run = try await command.finish(stdin: "\(wrong)\nanother long passphrase\n")
        #expect(run.status == 1)
        #expect(run.error.contains("invalid_code"))
        #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
    }
}

extension PasswordResetCommandTests {
    /// `tokenvend serve` on the fixture's store, its mail written to `.eml` files in the fixture's folder.
    static func fileTransportServer(_ fixture: EmailServerFixture, name: String) async throws -> ServeProcess {
        var configuration = try fixture.configuration(smtpPort: 25)
        configuration["email"] = [
            "transport": "file", "fileDirectory": fixture.folder.url.appending(path: "outbox").path,
        ]
        return try await ServeProcess.start(configuration, name: name, folder: fixture.folder.url)
    }
}

/// The built `tokenvend` with a pipe for stdin, so a test writes its input once it knows it.
final class CommandProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    /// `tokenvend password-reset --email <email>` against `server`, keeping its session in `sessionFile`.
    static func passwordReset(_ email: String, server: ServeProcess, sessionFile: URL, in folder: URL) throws
        -> CommandProcess
    {
        try CommandProcess(
            [
                "password-reset", "--email", email, "--url", "http://127.0.0.1:\(server.port)", "--session-file",
                sessionFile.path,
            ], in: folder)
    }

    init(_ arguments: [String], in folder: URL) throws {
        process.executableURL = try KeyCommandTests.executableURL()
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = folder
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Writes `stdin`, closes it, and waits for the exit.
    func finish(stdin: String) async throws -> KeyCommandTests.Run {
        try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // The pipes and the process are only read here, after the input is closed.
        nonisolated(unsafe) let (process, output, errors) = (self.process, self.output, self.errors)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let out = output.fileHandleForReading.readDataToEndOfFile()
                let err = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(
                    returning: KeyCommandTests.Run(
                        status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                        error: String(decoding: err, as: UTF8.self)))
            }
        }
    }
}
