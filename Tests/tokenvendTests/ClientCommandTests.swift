import ArgumentParser
import AuthAPI
import Foundation
import OutboundHTTP
import Synchronization
import Testing
import TokenClient
import TokenClientTesting

@testable import tokenvend

/// Runs the client commands in-process against ``FakeAuthServer``, with a session file in a temporary folder.
final class CommandHarness: Sendable {
    let server = FakeAuthServer()
    let folder: TemporaryFolder
    let sessionFile: URL
    private let output = Mutex<(out: [String], err: [String], stdin: [UInt8])>(([], [], []))

    init() throws {
        folder = try TemporaryFolder()
        sessionFile = folder.url.appending(path: "config/tokenvend/session.json")
    }

    var standardOutput: [String] { output.withLock { $0.out } }
    var standardError: [String] { output.withLock { $0.err } }
    var store: FileTokenStore { FileTokenStore(url: sessionFile) }
    var common: [String] { ["--url", "http://127.0.0.1:8080/", "--session-file", sessionFile.path] }

    func context(stdin: String = "", environment: [String: String] = [:]) -> ClientContext {
        output.withLock { $0.stdin = Array(stdin.utf8) }
        return ClientContext(
            environment: environment,
            transport: server,
            standardInputIsTerminal: false,
            nextStandardInputByte: { [self] in
                output.withLock { state in state.stdin.isEmpty ? nil : state.stdin.removeFirst() }
            },
            promptWithoutEcho: { _ in nil },
            writeOutput: { [self] line in output.withLock { $0.out.append(line) } },
            writeError: { [self] line in output.withLock { $0.err.append(line) } }
        )
    }

    func login(password: String = FakeAuthServer.password) async throws -> Int32 {
        let command = try LoginCommand.parse(common + ["--email", FakeAuthServer.email, "--password-stdin"])
        return await exitStatus { try await command.run(in: context(stdin: password + "\n")) }
    }

    func moss(_ extra: [String] = []) async throws -> Int32 {
        let command = try MossTokenCommand.parse(common + extra)
        return await exitStatus { try await command.run(in: context()) }
    }

    func stream(_ extra: [String]) async throws -> Int32 {
        let command = try StreamTokenCommand.parse(common + extra)
        return await exitStatus { try await command.run(in: context()) }
    }

    func logout(_ extra: [String] = []) async throws -> Int32 {
        let command = try LogoutCommand.parse(common + extra)
        return await exitStatus { try await command.run(in: context()) }
    }

    /// No printed line holds a token or the password.
    func expectNoSecretsPrinted(sourceLocation: SourceLocation = #_sourceLocation) {
        for line in standardOutput + standardError {
            #expect(!line.contains("access-"), sourceLocation: sourceLocation)
            #expect(!line.contains("refresh-"), sourceLocation: sourceLocation)
            #expect(!line.contains(FakeAuthServer.password), sourceLocation: sourceLocation)
        }
    }

    func remove() { folder.remove() }
}

@Suite("Command-line client: login, token, logout")
struct ClientCommandTests {
    @Test("login keeps the session in a 0600 file in a 0700 folder and prints email and id, not tokens")
    func login() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login() == 0)
        #expect(harness.standardOutput == ["signed in as ada@example.com (id u-1)"])
        let stored = try #require(try harness.store.load())
        #expect(stored.refreshToken == "refresh-1")
        #expect(try harness.folder.mode(of: harness.sessionFile) == 0o600)
        #expect(try harness.folder.mode(of: harness.sessionFile.deletingLastPathComponent()) == 0o700)
        #expect(SessionServerRecord(sessionFile: harness.sessionFile).read()?.port == 8080)
        harness.expectNoSecretsPrinted()
    }

    @Test("a refused login exits 1 naming the error code and writes nothing")
    func refusedLogin() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login(password: "wrong password") == 1)
        #expect(harness.standardError == ["server refused (HTTP 401): invalid_credentials: test invalid_credentials"])
        #expect(try harness.store.load() == nil)
        harness.expectNoSecretsPrinted()
    }

    @Test("login with no password source exits 2 before any request")
    func loginWithoutPassword() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        let command = try LoginCommand.parse(harness.common + ["--email", "ada@example.com"])
        #expect(await exitStatus { try await command.run(in: harness.context()) } == 2)
        #expect(harness.server.requests.isEmpty)
    }

    @Test("token moss prints the raw token, --json the token and expiresIn")
    func mossToken() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        #expect(try await harness.moss() == 0)
        #expect(try await harness.moss(["--json"]) == 0)
        #expect(harness.standardOutput.dropFirst() == [#"moss-1"#, #"{"expiresIn":300,"token":"moss-2"}"#])
    }

    @Test("without a session, token commands say to log in and exit 1")
    func notLoggedIn() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.moss() == 1)
        #expect(try await harness.stream([]) == 1)
        #expect(harness.standardError == Array(repeating: "not logged in: run tokenvend login", count: 2))
        #expect(harness.server.requests.isEmpty)
    }

    @Test("a refused access token is refreshed once and the rotated tokens are saved")
    func refreshOn401() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        harness.server.revokeAccessTokens()
        #expect(try await harness.moss() == 0)
        #expect(harness.server.count("/auth/refresh") == 1)
        #expect(try harness.store.load()?.refreshToken == "refresh-2")
    }

    @Test("a refused refresh token signs out: the session file is removed")
    func refreshRefused() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        harness.server.revokeAccessTokens()
        harness.server.configure { $0.refreshFailure = (401, .invalidGrant) }
        #expect(try await harness.moss() == 1)
        #expect(harness.standardError == ["not logged in: run tokenvend login"])
        #expect(!FileManager.default.fileExists(atPath: harness.sessionFile.path))
    }

    @Test("token stream sends the --customer-id map and reports a refusal")
    func streamToken() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        #expect(try await harness.stream(["--customer-id", "registered=ada@example.com"]) == 0)
        let body = try #require(harness.server.requests.last?.body)
        let sent = try JSONDecoder().decode(StreamTokenRequest.self, from: body)
        #expect(sent.customerIDs == ["registered": "ada@example.com"])
        #expect(harness.standardOutput.last?.split(separator: ".").count == 3)
        #expect(try await harness.stream(["--customer-id", "registered=eve@example.com"]) == 1)
        #expect(harness.standardError.last?.contains("insufficient_scope") == true)
        #expect(try await harness.stream(["--customer-id", "registered"]) == 2)
    }

    @Test("--customer-id splits at the first = and refuses empty parts and repeated keys")
    func customerIDs() throws {
        #expect(try CustomerIDArguments.parse([]) == nil)
        #expect(try CustomerIDArguments.parse(["a=b=c", "d=e"]) == ["a": "b=c", "d": "e"])
        for bad in [["=x"], ["x="], ["x"], ["k=1", "k=2"]] {
            #expect(throws: ClientCommandError.self) { try CustomerIDArguments.parse(bad) }
        }
    }

    @Test("an unreadable session file is reported as such, not as logged out, before any request")
    func corruptSessionFile() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        try Data("{not json".utf8).write(to: harness.sessionFile)
        let requestsBefore = harness.server.requests.count
        #expect(try await harness.moss() == 1)
        #expect(harness.standardError.last?.hasPrefix("session file: cannot read token file") == true)
        #expect(harness.server.requests.count == requestsBefore)
    }

    @Test("a --url other than the session's server exits 2 and sends nothing")
    func foreignServer() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        let requestsBefore = harness.server.requests.count
        let command = try MossTokenCommand.parse([
            "--url", "http://127.0.0.1:9/", "--session-file", harness.sessionFile.path,
        ])
        #expect(await exitStatus { try await command.run(in: harness.context()) } == 2)
        #expect(harness.server.requests.count == requestsBefore)
    }

    @Test("logout removes the session even when the server call fails, warns and exits 0")
    func logoutLocal() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        harness.server.configure { $0.logoutStatus = 503 }
        #expect(try await harness.logout() == 0)
        #expect(harness.server.requests.last?.query == "scope=local")
        #expect(!FileManager.default.fileExists(atPath: harness.sessionFile.path))
        #expect(SessionServerRecord(sessionFile: harness.sessionFile).read() == nil)
        #expect(harness.standardError.count == 1)
        #expect(harness.standardError.first?.hasPrefix("warning: removed the local session") == true)
        #expect(try await harness.logout() == 0)
        harness.expectNoSecretsPrinted()
    }

    @Test("logout --scope others keeps this session; --scope global that fails exits 1 but signs out here")
    func logoutScopes() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        _ = try await harness.login()
        #expect(try await harness.logout(["--scope", "others"]) == 0)
        #expect(harness.server.requests.last?.query == "scope=others")
        #expect(try harness.store.load() != nil)
        harness.server.configure { $0.logoutStatus = 503 }
        #expect(try await harness.logout(["--scope", "global"]) == 1)
        #expect(harness.server.requests.last?.query == "scope=global")
        #expect(try harness.store.load() == nil)
        #expect(try await harness.logout(["--scope", "others"]) == 1)
        #expect(harness.standardError.last == "not logged in: run tokenvend login")
    }

    @Test("error lines lose control characters and stay short")
    func sanitizedErrors() {
        let body = ErrorBody(
            error: "unavailable", message: "read-only\u{1B}[31m\nnext" + String(repeating: "x", count: 400))
        let report = FailureReport(TokenClientError.server(status: 503, body: body))
        #expect(!report.message.contains("\u{1B}"))
        #expect(!report.message.contains("\n"))
        #expect(report.message.count < 400)
        #expect(report.exitCode == 1)
    }

    @Test("a transport error is reported with OutboundHTTP's reason, as the command's transport describes it")
    func transportReason() {
        let refused = String(describing: OutboundHTTPError.connectionRefused)
        #expect(
            FailureReport(TokenClientError.transport(refused)).message == "cannot reach the server: connection refused")
        #expect(FailureReport(TokenClientError.transport("timed out")).message == "cannot reach the server: timed out")
    }

    @Test("the commands are registered under tokenvend")
    func registration() throws {
        #expect(
            try TokenvendCommand.parseAsRoot(["token", "stream", "--customer-id", "a=b", "--json"])
                is StreamTokenCommand)
        #expect(try TokenvendCommand.parseAsRoot(["logout", "--scope", "global"]) is LogoutCommand)
        #expect(throws: (any Error).self) { try TokenvendCommand.parseAsRoot(["logout", "--scope", "all"]) }
    }
}
