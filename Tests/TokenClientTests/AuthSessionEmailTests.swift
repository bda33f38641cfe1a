import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("AuthSession email codes")
struct AuthSessionEmailTests {
    let fixture = SessionFixture()
    var server: FakeAuthServer { fixture.server }
    var session: AuthSession { fixture.session }

    @Test("requestEmailVerification posts with the bearer token; the confirm updates the session's user")
    func verification() async throws {
        try await fixture.signIn()
        try await session.requestEmailVerification()
        let request = try #require(server.requests.last)
        #expect(request.path == "/auth/email/verification")
        #expect(request.authorization == "Bearer access-1")
        let code = try #require(server.emailCode("verification", to: FakeAuthServer.email))
        let user = try await session.confirmEmailVerification(code: code)
        #expect(user.emailVerified)
        #expect(await session.state == .signedIn(user))
        #expect(session.snapshot.user?.emailVerified == true)
        let sent = try JSONDecoder().decode(EmailCodeRequest.self, from: try #require(server.requests.last?.body))
        #expect(sent == EmailCodeRequest(code: code))
    }

    @Test("a wrong code is TokenClientError.server 400 invalid_code, typed as EmailFlowFailure.invalidCode")
    func wrongCode() async throws {
        try await fixture.signIn()
        try await session.requestEmailVerification()
        let error = try await #require(throws: TokenClientError.self) {
            try await session.confirmEmailVerification(code: "000000")
        }
        #expect(error.code == .invalidCode)
        #expect(error.emailFailure == .invalidCode)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("requestPasswordReset sends no credentials and succeeds for unknown addresses too")
    func resetRequest() async throws {
        try await fixture.signIn()
        try await session.requestPasswordReset(email: "nobody@example.com")
        try await session.requestPasswordReset(email: FakeAuthServer.email)
        let requests = server.requests.filter { $0.path == "/auth/password/reset" }
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.authorization == nil })
        #expect(server.emailCode("password_reset", to: "nobody@example.com") == nil)
        #expect(server.emailCode("password_reset", to: FakeAuthServer.email) != nil)
    }

    @Test("confirmPasswordReset signs in like login: bearer strategy, new tokens stored, signed-in state")
    func resetConfirm() async throws {
        try await session.requestPasswordReset(email: FakeAuthServer.email)
        let code = try #require(server.emailCode("password_reset", to: FakeAuthServer.email))
        let user = try await session.confirmPasswordReset(
            email: FakeAuthServer.email, code: code, newPassword: "a new long passphrase")
        #expect(user.email == FakeAuthServer.email)
        #expect(await session.state == .signedIn(user))
        #expect(try await session.accessToken() == "access-1")
        let request = try #require(server.requests.last { $0.path == "/auth/password/reset/confirm" })
        #expect(request.authStrategy == "bearer")
        #expect(request.authorization == nil)
        #expect(server.state.withLock { $0.email.password } == "a new long passphrase")
        // Used once: the same code again is invalid_code, and the session stays.
        let again = try await #require(throws: TokenClientError.self) {
            try await session.confirmPasswordReset(
                email: FakeAuthServer.email, code: code, newPassword: "whatever 1234")
        }
        #expect(again.emailFailure == .invalidCode)
        #expect(await session.state == .signedIn(user))
    }

    @Test("a weak new password is weak_password; a wrong current password is wrongPassword")
    func passwordRefusals() async throws {
        try await session.requestPasswordReset(email: FakeAuthServer.email)
        let code = try #require(server.emailCode("password_reset", to: FakeAuthServer.email))
        let weak = try await #require(throws: TokenClientError.self) {
            try await session.confirmPasswordReset(email: FakeAuthServer.email, code: code, newPassword: "password1234")
        }
        #expect(weak.emailFailure == .weakPassword)
        try await fixture.signIn()
        let wrong = try await #require(throws: TokenClientError.self) {
            try await session.changePassword(current: "not it", new: "a new long passphrase")
        }
        #expect(wrong.emailFailure == .wrongPassword)
    }

    @Test("changePassword posts both passwords with the bearer token and keeps the session")
    func change() async throws {
        try await fixture.signIn()
        try await session.changePassword(current: FakeAuthServer.password, new: "a new long passphrase")
        let request = try #require(server.requests.last)
        #expect(request.path == "/auth/password/change")
        #expect(request.authorization == "Bearer access-1")
        let body = try JSONDecoder().decode(PasswordChangeRequest.self, from: try #require(request.body))
        #expect(
            body
                == PasswordChangeRequest(currentPassword: FakeAuthServer.password, newPassword: "a new long passphrase")
        )
        #expect(await session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("a sign-in code signs in and reports created; disabled codes are signInCodesDisabled")
    func signInCode() async throws {
        try await session.requestSignInCode(email: "new@example.com")
        let code = try #require(server.emailCode("sign_in", to: "new@example.com"))
        let result = try await session.signIn(email: "new@example.com", code: code)
        #expect(result.created)
        #expect(result.user.email == "new@example.com")
        #expect(await session.state == .signedIn(result.user))
        #expect(server.requests.last?.authStrategy == "bearer")
        try await session.requestSignInCode(email: "new@example.com")
        let second = try #require(server.emailCode("sign_in", to: "new@example.com"))
        #expect(try await session.signIn(email: "new@example.com", code: second).created == false)
        server.configure { $0.email.signInCodes = false }
        let off = try await #require(throws: TokenClientError.self) {
            try await session.requestSignInCode(email: "new@example.com")
        }
        #expect(off.emailFailure == .signInCodesDisabled)
    }

    @Test("an email change sends the code to the new address and the confirm moves the session's user")
    func emailChange() async throws {
        try await fixture.signIn()
        try await session.requestEmailChange(to: "ada@new.example", currentPassword: FakeAuthServer.password)
        let body = try JSONDecoder().decode(EmailChangeRequest.self, from: try #require(server.requests.last?.body))
        #expect(body == EmailChangeRequest(newEmail: "ada@new.example", currentPassword: FakeAuthServer.password))
        let code = try #require(server.emailCode("email_change", to: "ada@new.example"))
        let user = try await session.confirmEmailChange(code: code)
        #expect(user.email == "ada@new.example")
        #expect(session.snapshot.user?.email == "ada@new.example")
        let taken = try await #require(throws: TokenClientError.self) {
            try await session.requestEmailChange(to: FakeAuthServer.email, currentPassword: FakeAuthServer.password)
        }
        #expect(taken.emailFailure == .emailTaken)
    }

    @Test("429 and 503 map to tooManyRequests and unavailable; bearer flows without a session are signedOut")
    func failures() async throws {
        server.configure { $0.email.failure = (429, .tooManyRequests) }
        let limited = try await #require(throws: TokenClientError.self) {
            try await session.requestPasswordReset(email: FakeAuthServer.email)
        }
        #expect(limited.emailFailure == .tooManyRequests)
        server.configure { $0.email.failure = (503, .unavailable) }
        let off = try await #require(throws: TokenClientError.self) {
            try await session.requestSignInCode(email: FakeAuthServer.email)
        }
        #expect(off.emailFailure == .unavailable)
        await #expect(throws: TokenClientError.signedOut) { try await session.requestEmailVerification() }
        #expect(TokenClientError.transport("down").emailFailure == nil)
    }
}
