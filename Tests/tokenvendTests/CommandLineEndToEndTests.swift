import ArgumentParser
import AuthAPI
import Foundation
import Synchronization
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

@testable import tokenvend

/// The client commands run in-process, talking HTTP to the real server through their own transport (libcurl).
@Suite("tokenvend client commands against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct CommandLineEndToEndTests {
    /// Captures what the commands print and feeds them stdin.
    final class Console: Sendable {
        private let lines = Mutex<(out: [String], err: [String], stdin: [UInt8])>(([], [], []))

        var output: [String] { lines.withLock { $0.out } }
        var errors: [String] { lines.withLock { $0.err } }

        func context(stdin: String = "") -> ClientContext {
            lines.withLock { $0.stdin = Array(stdin.utf8) }
            return ClientContext(
                environment: [:], transport: OutboundTransport(), standardInputIsTerminal: false,
                nextStandardInputByte: { [self] in
                    lines.withLock { state in state.stdin.isEmpty ? nil : state.stdin.removeFirst() }
                },
                promptWithoutEcho: { _ in nil },
                writeOutput: { [self] line in lines.withLock { $0.out.append(line) } },
                writeError: { [self] line in lines.withLock { $0.err.append(line) } })
        }

    }

    @Test("login --password-stdin, token stream, token moss --json and logout against the real server")
    func loginTokensLogout() async throws {
        let serverClock = TestClock(Date())  // login binds with DPoP: the proofs' iat is the real clock's
        let upstream = CountingMossUpstream()
        try await withTestServer(mossUpstream: upstream, now: serverClock.closure) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let sessionFile = folder.url.appending(path: "config/tokenvend/session.json")
            let common = ["--url", live.baseURL.absoluteString, "--session-file", sessionFile.path]
            let console = Console()
            let email = "cli@example.com"
            let user = try await live.session(now: { Date() }).register(email: email, password: TestServer.password)

            let login = try LoginCommand.parse(common + ["--email", email, "--password-stdin"])
            #expect(
                await exitStatus { try await login.run(in: console.context(stdin: TestServer.password + "\n")) }
                    == 0)
            #expect(console.output == ["signed in as \(email) (id \(user.id))"])
            #expect(try folder.mode(of: sessionFile) == 0o600)
            let stored = try #require(try FileTokenStore(url: sessionFile).load())
            #expect(stored.tokenType == "DPoP")
            let key = try DPoPKeyKind.softwareP256.restore(try #require(try FileTokenStore(url: sessionFile).loadKey()))

            let stream = try StreamTokenCommand.parse(common)
            #expect(await exitStatus { try await stream.run(in: console.context()) } == 0)
            let jwt = try #require(console.output.last)
            let (header, payload) = try IndependentJWS.verify(jwt, secret: TestServer.streamSecret)
            #expect(header == #"{"alg":"HS512","typ":"JWT","kid":"stream-1"}"#)
            #expect(payload["ids"] as? [String: String] == ["registered": user.id])

            let moss = try MossTokenCommand.parse(common + ["--json"])
            #expect(await exitStatus { try await moss.run(in: console.context()) } == 0)
            let printed = try #require(console.output.last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any])
            #expect(object["token"] as? String == "moss-project-token-1")
            // Remaining lifetime minus the 60 s margin, rounded down by the server.
            #expect((3530...3540).contains(try #require(object["expiresIn"] as? Int)))
            #expect(upstream.callCount == 1)

            let logout = try LogoutCommand.parse(common)
            #expect(await exitStatus { try await logout.run(in: console.context()) } == 0)
            #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
            #expect(console.errors.isEmpty, "\(console.errors)")
            // The session was bound: its refresh token is tried with a proof by its key, and the session is over.
            let proof = try DPoPProofSigner(key: key).proof(
                method: "POST", url: live.baseURL.appending(path: "auth/refresh"))
            let refresh = try await live.request(
                "POST", "/auth/refresh", headers: ["DPoP": proof],
                json: #"{"refreshToken":"\#(stored.refreshToken)"}"#)
            #expect((refresh.status, refresh.errorCode) == (401, "invalid_grant"))
            #expect(try await live.rawStatus("GET", "auth/me", bearer: stored.accessToken) == (401, "invalid_token"))

            let afterwards = try StreamTokenCommand.parse(common)
            #expect(await exitStatus { try await afterwards.run(in: console.context()) } == 1)
            for line in console.output + console.errors {
                #expect(!line.contains(stored.refreshToken))
                #expect(!line.contains(stored.accessToken))
                #expect(!line.contains(TestServer.password))
            }
        }
    }
}
