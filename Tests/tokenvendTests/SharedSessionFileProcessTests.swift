import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// Two `tokenvend` processes on one session file: the cross-process lock (`FileTokenStore.lock()`) and the re-read
/// before a refresh make them share one rotation instead of replaying a spent refresh token.
@Suite("two tokenvend processes on one session file", .tags(.integration), .timeLimit(.minutes(1)))
struct SharedSessionFileProcessTests {
    @Test(
        "two processes with an expired access token at once: one refresh in all, both print a token, the session lives",
        arguments: ["10", "0"])
    func twoProcessesOneRefresh(grace: String) async throws {
        let environment = [
            "TOKENVEND_REFRESH_TOKEN_REUSE_GRACE_SECONDS": grace,
            "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000",
        ]
        try await withTestServer(environment: environment) { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let sessionFile = folder.url.appending(path: "session.json")
            let store = FileTokenStore(url: sessionFile)
            let email = "two-processes@example.com"
            let user = try await live.session(now: { Date() }).register(email: email, password: TestServer.password)
            let login = AuthSession(baseURL: live.baseURL, transport: TestServer.transport, store: store)
            try await login.login(email: email, password: TestServer.password)
            // Both processes must find the access token expired, so both want to refresh.
            var stored = try #require(try store.load())
            stored.accessTokenExpiresAt = Date(timeIntervalSinceNow: -60)
            try store.save(stored)
            let before = (live.refreshesAnswered, live.refreshesRefused, live.reuseDetected)

            let arguments = [
                "token", "stream", "--url", live.baseURL.absoluteString, "--session-file", sessionFile.path,
            ]
            async let first = KeyCommandTests.tokenvend(arguments, in: folder.url)
            async let second = KeyCommandTests.tokenvend(arguments, in: folder.url)
            let runs = try await [first, second]

            for run in runs {
                #expect(run.status == 0, "stderr: \(run.error)")
                #expect(run.output.hasPrefix("eyJ"))
            }
            #expect(live.refreshesAnswered - before.0 == 1)
            #expect(live.refreshesRefused - before.1 == 0)
            #expect(live.reuseDetected - before.2 == 0)
            let after = try #require(try store.load())
            #expect(after.refreshToken != stored.refreshToken)
            // The pair both processes ended with is live on the server.
            let check = AuthSession(baseURL: live.baseURL, transport: TestServer.transport, store: store)
            #expect(try await check.me().sub == user.id)
        }
    }
}
