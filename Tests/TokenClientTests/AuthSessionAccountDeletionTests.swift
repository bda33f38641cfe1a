import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("AuthSession account deletion")
struct AuthSessionAccountDeletionTests {
    let store = InMemoryTokenStore()
    let fixture: SessionFixture
    var server: FakeAuthServer { fixture.server }
    var session: AuthSession { fixture.session }

    init() {
        fixture = SessionFixture(store: store)
    }

    @Test("deleteAccount sends DELETE /auth/account with the password and the bearer token, then signs out")
    func deleteWithPassword() async throws {
        try await fixture.signIn()
        let events = Recorder(await session.events())
        try await session.deleteAccount(password: FakeAuthServer.password)
        let request = try #require(server.requests.last)
        #expect(request.method == "DELETE")
        #expect(request.path == "/auth/account")
        #expect(request.authorization == "Bearer access-1")
        let sent = try JSONDecoder().decode(AccountDeletionRequest.self, from: try #require(request.body))
        #expect(sent == AccountDeletionRequest(password: FakeAuthServer.password))
        #expect(await session.state == .signedOut)
        #expect(session.snapshot == SessionSnapshot(state: .signedOut))
        #expect(store.load() == nil)
        let seen = await events.wait { $0.contains(where: \.isSignOut) }
        #expect(seen.filter(\.isSignOut) == [.signedOut(reason: .accountDeleted)])
        #expect(server.state.withLock { $0.deletion.deleted } == [FakeAuthServer.user.id])
        await #expect(throws: TokenClientError.signedOut) { try await session.me() }
    }

    @Test("a passwordless account is deleted with an empty body when its sign-in is recent")
    func deletePasswordless() async throws {
        server.configure { $0.deletion.hasPassword = false }
        try await fixture.signIn()
        try await session.deleteAccount(password: nil)
        let request = try #require(server.requests.last)
        let sent = try JSONDecoder().decode(AccountDeletionRequest.self, from: try #require(request.body))
        #expect(sent.password == nil)
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
    }

    @Test("401 reauthentication_required is typed, and the session stays signed in without a refresh")
    func reauthenticationRequired() async throws {
        try await fixture.signIn()
        let events = Recorder(await session.events())
        let wrong = try await #require(throws: TokenClientError.self) {
            try await session.deleteAccount(password: "not it")
        }
        #expect(wrong.accountDeletionFailure == .reauthenticationRequired)
        #expect(wrong.code == .reauthenticationRequired)
        #expect(wrong.emailFailure == nil)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(store.load()?.accessToken == "access-1")
        #expect(server.count("/auth/refresh") == 0)
        #expect(await events.settled().isEmpty)

        server.configure {
            $0.deletion.hasPassword = false
            $0.deletion.recentSignIn = false
        }
        let stale = try await #require(throws: TokenClientError.self) { try await session.deleteAccount(password: nil) }
        #expect(stale.accountDeletionFailure == .reauthenticationRequired)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        // The app signs in again; the deletion then goes through.
        server.configure { $0.deletion.recentSignIn = true }
        try await fixture.signIn()
        try await session.deleteAccount(password: nil)
        #expect(await session.state == .signedOut)
    }

    @Test("an expired access token is refreshed before the deletion, which then signs out")
    func refreshesFirst() async throws {
        try await fixture.signIn()
        fixture.clock.advance(by: 901)
        try await session.deleteAccount(password: FakeAuthServer.password)
        #expect(fixture.authorizations("/auth/account") == ["Bearer access-2"])
        #expect(await session.state == .signedOut)
    }

    @Test("without a session deleteAccount throws signedOut and sends nothing")
    func signedOut() async throws {
        await #expect(throws: TokenClientError.signedOut) { try await session.deleteAccount(password: "x") }
        #expect(server.requests.isEmpty)
    }

    @Test("429 and 503 are typed; the session stays")
    func otherRefusals() async throws {
        try await fixture.signIn()
        server.configure { $0.email.failure = (429, .tooManyRequests) }
        let limited = try await #require(throws: TokenClientError.self) {
            try await session.requestAccountDeletion(email: FakeAuthServer.email)
        }
        #expect(limited.accountDeletionFailure == .tooManyRequests)
        server.configure { $0.email.failure = (503, .unavailable) }
        let off = try await #require(throws: TokenClientError.self) {
            try await session.requestAccountDeletion(email: FakeAuthServer.email)
        }
        #expect(off.accountDeletionFailure == .unavailable)
        #expect(TokenClientError.signedOut.accountDeletionFailure == nil)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("the emailed code deletes the account without credentials; the signed-in session to it ends")
    func byEmailCode() async throws {
        try await fixture.signIn()
        let events = Recorder(await session.events())
        try await session.requestAccountDeletion(email: FakeAuthServer.email)
        try await session.requestAccountDeletion(email: "nobody@example.com")
        let requests = server.requests.filter { $0.path == "/auth/account/deletion" }
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.authorization == nil && $0.method == "POST" })
        #expect(server.emailCode("deletion", to: "nobody@example.com") == nil)
        let code = try #require(server.emailCode("deletion", to: FakeAuthServer.email))

        let wrong = try await #require(throws: TokenClientError.self) {
            try await session.confirmAccountDeletion(email: FakeAuthServer.email, code: "000000")
        }
        #expect(wrong.accountDeletionFailure == .invalidCode)
        #expect(await session.state == .signedIn(FakeAuthServer.user))

        try await session.confirmAccountDeletion(email: " ADA@example.com", code: code)
        let confirm = try #require(server.requests.last)
        #expect(confirm.path == "/auth/account/deletion/confirm")
        #expect(confirm.authorization == nil)
        let sent = try JSONDecoder().decode(AccountDeletionConfirmRequest.self, from: try #require(confirm.body))
        #expect(sent == AccountDeletionConfirmRequest(email: " ADA@example.com", code: code))
        #expect(await session.state == .signedOut)
        #expect(store.load() == nil)
        let seen = await events.wait { $0.contains(where: \.isSignOut) }
        #expect(seen.filter(\.isSignOut) == [.signedOut(reason: .accountDeleted)])
    }

    @Test("deleting another address's account by code leaves this session alone")
    func otherAccountByCode() async throws {
        server.configure { $0.email.accounts.insert(FakeAuthServer.otherUser.email ?? "") }
        try await fixture.signIn()
        let other = try #require(FakeAuthServer.otherUser.email)
        try await session.requestAccountDeletion(email: other)
        let code = try #require(server.emailCode("deletion", to: other))
        try await session.confirmAccountDeletion(email: other, code: code)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(store.load() != nil)
    }
}

@Suite("AuthSession.signIn with Apple's authorization code")
struct AuthorizationCodeSignInTests {
    @Test("signIn sends authorizationCode next to the ID token, and leaves it out when nil")
    func sendsAuthorizationCode() async throws {
        let fixture = SessionFixture()
        let nonce = try await fixture.session.signInNonce()
        try await fixture.session.signIn(
            provider: "apple", idToken: FakeAuthServer.idToken, nonce: nonce.raw, authorizationCode: "c0de.apple")
        let body = try #require(fixture.server.requests.last?.body)
        let sent = try JSONDecoder().decode(IDTokenSignInRequest.self, from: body)
        #expect(sent.authorizationCode == "c0de.apple")
        #expect(sent.nonce == nonce.raw)

        let again = try await fixture.session.signInNonce()
        try await fixture.session.signIn(provider: "apple", idToken: FakeAuthServer.idToken, nonce: again.raw)
        let plain = try #require(fixture.server.requests.last?.body)
        #expect(!String(decoding: plain, as: UTF8.self).contains("authorizationCode"))
    }
}
