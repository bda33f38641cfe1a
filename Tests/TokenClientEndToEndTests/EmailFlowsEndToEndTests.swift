import AuthAPI
import Foundation
import MailTesting
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// TokenClient's email-code methods against the real server, whose outbox sender delivers to MailTesting's SMTP
/// sink; the codes are read from the messages as a user would (the only run of six digits in the plain text).
@Suite("TokenClient email codes against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct EmailFlowsEndToEndTests {
    @Test("verification, password reset and change, sign-in code and email change, each through its method")
    func everyFlow() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.stop() }
        var environment = TestServer.mailEnvironment(smtpPort: sink.port)
        environment["TOKENVEND_EMAIL_SIGN_IN_CODES"] = "true"
        // One address gets a verification, then a reset, within the minute.
        environment["TOKENVEND_EMAIL_SENDS_PER_ADDRESS_PER_MINUTE"] = "10"
        try await withTestServer(environment: environment) { live in
            let session = live.session(now: { Date() })
            let email = "client-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await live.signUp(session, email: email)
            #expect(session.snapshot.user?.emailVerified == false)

            // Verification: a wrong code is invalidCode, the right one verifies and updates the session's user.
            try await session.requestEmailVerification()
            let verification = try await sink.code(to: email)
            let wrong = try await #require(throws: TokenClientError.self) {
                try await session.confirmEmailVerification(code: verification == "000000" ? "111111" : "000000")
            }
            #expect(wrong.emailFailure == .invalidCode)
            let verified = try await session.confirmEmailVerification(code: verification)
            #expect(verified.emailVerified)
            #expect(session.snapshot.user?.emailVerified == true)

            // Reset from another device: it signs that device in and ends the first session.
            let other = live.session(now: { Date() })
            try await other.requestPasswordReset(email: email)
            try await other.requestPasswordReset(email: "nobody-\(UUID().uuidString.prefix(8))@example.com")
            let reset = try await sink.code(to: email)
            let newPassword = "a new long passphrase for the client"
            let weak = try await #require(throws: TokenClientError.self) {
                try await other.confirmPasswordReset(email: email, code: reset, newPassword: "1qaz2wsx3edc")
            }
            #expect(weak.emailFailure == .weakPassword)
            let user = try await other.confirmPasswordReset(email: email, code: reset, newPassword: newPassword)
            #expect(user.id == verified.id)
            #expect(await other.state == .signedIn(user))
            await #expect(throws: TokenClientError.signedOut) { try await session.me() }

            // Change: the current password is checked, the caller's session stays.
            let refused = try await #require(throws: TokenClientError.self) {
                try await other.changePassword(current: "not the password at all", new: "whatever long enough")
            }
            #expect(refused.emailFailure == .wrongPassword)
            try await other.changePassword(current: newPassword, new: "the third long passphrase")
            #expect(try await other.me().sub == user.id)

            // Email change: the code goes to the new address; the confirm moves the session's user.
            let moved = "moved-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await other.requestEmailChange(to: moved, currentPassword: "the third long passphrase")
            let change = try await sink.code(to: moved)
            let changed = try await other.confirmEmailChange(code: change)
            #expect(changed.email == moved && changed.emailVerified)
            #expect(other.snapshot.user?.email == moved)
            let notice = try await sink.nextMessage()
            #expect(notice.rcptTos == [email])

            // Sign-in code for a new address: creates the account.
            let fresh = live.session(now: { Date() })
            let newcomer = "newcomer-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await fresh.requestSignInCode(email: newcomer)
            let signIn = try await sink.code(to: newcomer)
            let result = try await fresh.signIn(email: newcomer, code: signIn)
            #expect(result.created && result.user.email == newcomer && result.user.emailVerified)
            #expect(try await fresh.me().sub == result.user.id)
        }
    }
}
