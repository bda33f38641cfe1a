import AuthAPI
import Foundation
import MailTesting
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// TokenClient's deletion methods against the real server: `deleteAccount(password:)` with a password, and for a
/// passwordless account (signed in by an emailed code) with a recent and a stale sign-in; the deletion by code.
/// Codes come from MailTesting's SMTP sink.
@Suite("TokenClient account deletion against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct AccountDeletionEndToEndTests {
    @Test("deleteAccount with the password signs out with accountDeleted; the address registers again")
    func withPassword() async throws {
        try await withTestServer { live in
            let store = InMemoryTokenStore()
            let session = live.session(store: store, now: { Date() })
            let email = "delete-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await live.signUp(session, email: email)
            let other = live.session(now: { Date() })
            try await other.login(email: email, password: TestServer.password)
            let events = Recorder(await session.events())

            let wrong = try await #require(throws: TokenClientError.self) {
                try await session.deleteAccount(password: "not the password at all")
            }
            #expect(wrong.accountDeletionFailure == .reauthenticationRequired)
            #expect(await session.state.isSignedIn)
            #expect(try await session.me().sub == session.snapshot.user?.id)

            try await session.deleteAccount(password: TestServer.password)
            #expect(await session.state == .signedOut)
            #expect(store.load() == nil)
            let seen = await events.wait { $0.contains(.signedOut(reason: .accountDeleted)) }
            #expect(seen.contains(.signedOut(reason: .accountDeleted)))
            #expect(!seen.contains(.signedOut(reason: .revoked)))
            // The other device's session is gone too: its refresh is refused and it signs out.
            await #expect(throws: TokenClientError.self) { try await other.refresh() }
            #expect(await other.state == .signedOut)
            let again = live.session(now: { Date() })
            try await again.register(email: email, password: TestServer.password)
        }
    }

    @Test("a passwordless account: deleted after a recent sign-in, refused after a stale one until it signs in again")
    func passwordless() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        var environment = TestServer.mailEnvironment(smtpPort: sink.port)
        environment["TOKENVEND_EMAIL_SIGN_IN_CODES"] = "true"
        environment["TOKENVEND_EMAIL_SENDS_PER_ADDRESS_PER_MINUTE"] = "10"
        environment["TOKENVEND_ACCOUNT_REAUTHENTICATION_SECONDS"] = "300"
        let clock = TestClock(Date())
        try await withTestServer(environment: environment, now: clock.closure) { live in
            let session = live.session(now: clock.closure)
            let email = "codes-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await session.requestSignInCode(email: email)
            try await session.signIn(email: email, code: try await sink.code(to: email))

            clock.advance(by: 400)
            let stale = try await #require(throws: TokenClientError.self) {
                try await session.deleteAccount(password: nil)
            }
            #expect(stale.accountDeletionFailure == .reauthenticationRequired)
            #expect(await session.state.isSignedIn)

            try await session.requestSignInCode(email: email)
            try await session.signIn(email: email, code: try await sink.code(to: email))
            try await session.deleteAccount(password: nil)
            #expect(await session.state == .signedOut)
        }
    }

    @Test("requestAccountDeletion and confirmAccountDeletion delete by the emailed code; the session ends")
    func byCode() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        try await withTestServer(environment: TestServer.mailEnvironment(smtpPort: sink.port)) { live in
            let session = live.session(now: { Date() })
            let email = "bycode-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await live.signUp(session, email: email)
            try await session.requestAccountDeletion(email: email)
            let code = try await sink.code(to: email)
            let wrong = try await #require(throws: TokenClientError.self) {
                try await session.confirmAccountDeletion(email: email, code: code == "000000" ? "111111" : "000000")
            }
            #expect(wrong.accountDeletionFailure == .invalidCode)
            try await session.confirmAccountDeletion(email: email.uppercased(), code: code)
            #expect(await session.state == .signedOut)
            let login = try await #require(throws: TokenClientError.self) {
                try await live.session(now: { Date() }).login(email: email, password: TestServer.password)
            }
            #expect(login.code == .invalidCredentials)
        }
    }
}
