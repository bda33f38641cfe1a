import Foundation
import IdentityProvidersTesting
import Testing
import TokenClientTesting

/// The Sign in with Apple revocation of a deleted account against real processes: `tokenvend serve` as a child
/// process and scripts/fake_apple.py (which checks the ES256 client secret with PyJWT), on SQLite (and on PostgreSQL
/// under `TOKENVEND_TEST_BACKEND=postgres`). Waits on events: the server's listening line, each revoke call the fake
/// prints.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AppleRevocationProcessTests {
    @Test("a deleted account's Apple refresh token is revoked once, with the right token and client secret")
    func revokedOnce() async throws {
        let fixture = try await DeletionServerFixture(apple: true)
        let apple = try #require(fixture.apple)
        let server = try await ServeProcess.start(try fixture.configuration(), name: "once", folder: fixture.folder.url)
        defer { server.stop(with: SIGKILL) }
        let client = ServeClient(port: server.port)
        let signIn = try await fixture.signInWithApple(client, subject: "001.once", authorizationCode: "code-once")
        #expect(signIn.status == 200)
        let access = try #require(signIn.accessToken)

        let deleted = try await client.deleteAccount(access)
        #expect(deleted.status == 200)
        #expect(deleted.object["deleted"] as? Bool == true)
        let revocation = try await apple.nextRevocation()
        #expect(revocation.token == "rt-code-once")
        #expect(revocation.clientId == apple.clientId)
        #expect(revocation.tokenTypeHint == "refresh_token")
        #expect(revocation.secretValid)
        #expect(revocation.status == 200)
        // Once: the job is gone from the outbox, and the fake got one call.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await !fixture.outboxLines().isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await fixture.outboxLines().isEmpty)
        #expect(try await apple.revocations().count == 1)
        #expect(!server.logs.contains("rt-code-once"))
        // The account is gone: its token no longer works, and Apple's sign-in makes a new account.
        #expect(try await client.send("GET", "/auth/me", bearer: access).status == 401)
        let again = try await fixture.signInWithApple(client, subject: "001.once", authorizationCode: "code-two")
        #expect(again.status == 200 && again.object["created"] as? Bool == true)
    }

    @Test("after Apple answered 503 twice the revocation is retried and sent")
    func retriedAfter503() async throws {
        let fixture = try await DeletionServerFixture(apple: true)
        let apple = try #require(fixture.apple)
        let server = try await ServeProcess.start(try fixture.configuration(), name: "503", folder: fixture.folder.url)
        defer { server.stop(with: SIGKILL) }
        let client = ServeClient(port: server.port)
        let signIn = try await fixture.signInWithApple(client, subject: "001.outage", authorizationCode: "code-503")
        try await apple.failNextRevocations(status: 503, count: 2)
        let started = ContinuousClock.now
        #expect(try await client.deleteAccount(try #require(signIn.accessToken)).status == 200)
        // The deletion does not wait for Apple.
        #expect(ContinuousClock.now - started < .seconds(2))
        let first = try await apple.nextRevocation()
        let second = try await apple.nextRevocation()
        let third = try await apple.nextRevocation()
        #expect([first.status, second.status, third.status] == [Int](arrayLiteral: 503, 503, 200))
        #expect([first, second, third].allSatisfy { $0.token == "rt-code-503" && $0.secretValid })
        // 1 s, then 2 s of backoff.
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test("kill -9 of the instance that queued the revocation before it could send: the restarted one sends it")
    func killedBeforeSending() async throws {
        let fixture = try await DeletionServerFixture(apple: true)
        let apple = try #require(fixture.apple)
        let configuration = try fixture.configuration()
        let first = try await ServeProcess.start(configuration, name: "first", folder: fixture.folder.url)
        let client = ServeClient(port: first.port)
        let signIn = try await fixture.signInWithApple(client, subject: "001.killed", authorizationCode: "code-kill")
        // Apple fails every call while the first process lives, so it cannot send before it dies.
        try await apple.failNextRevocations(status: 503, count: 1000)
        #expect(try await client.deleteAccount(try #require(signIn.accessToken)).status == 200)
        let failed = try await apple.nextRevocation()
        #expect(failed.status == 503 && failed.token == "rt-code-kill")
        first.stop(with: SIGKILL)
        #expect(try await fixture.outboxLines().count == 1)

        try await apple.failNextRevocations(status: 503, count: 0)
        // Restarted as the same instance (host and port): it takes back what the killed process held.
        let second = try await ServeProcess.start(
            configuration, name: "second", folder: fixture.folder.url, port: first.port)
        defer { second.stop(with: SIGKILL) }
        let sent = try await apple.nextRevocation()
        #expect(sent.status == 200)
        #expect(sent.token == "rt-code-kill" && sent.secretValid)
        #expect(try await apple.revocations().filter { $0.status == 200 }.count == 1)
    }
}
