import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@testable import TokenClientCore

@Suite("AuthSession passkeys")
struct AuthSessionPasskeyTests {
    let fixture = SessionFixture()
    var server: FakeAuthServer { fixture.server }
    var session: AuthSession { fixture.session }

    @Test("signUpWithPasskey: options without credentials, then the sign-up signs in like login (bearer strategy)")
    func signUp() async throws {
        let authenticator = FakePasskeyAuthenticator()
        let result = try await session.signUpWithPasskey(
            email: "new@example.com", name: "My phone", authenticator: authenticator)
        #expect(result.created)
        #expect(result.user.email == "new@example.com")
        #expect(await session.state == .signedIn(result.user))
        #expect(try await session.accessToken() == "access-1")
        let options = try #require(authenticator.receivedCreationOptions.first)
        #expect(options.user.name == "new@example.com")
        let optionsRequest = try #require(server.requests.first { $0.path == "/auth/passkeys/signup/options" })
        #expect(optionsRequest.authorization == nil)
        #expect(
            try JSONDecoder().decode(PasskeySignUpOptionsRequest.self, from: try #require(optionsRequest.body))
                == PasskeySignUpOptionsRequest(email: "new@example.com"))
        let signUp = try #require(server.requests.first { $0.path == "/auth/passkeys/signup" })
        #expect(signUp.authStrategy == "bearer")
        #expect(signUp.authorization == nil)
        let sent = try JSONDecoder().decode(PasskeyRegistrationRequest.self, from: try #require(signUp.body))
        #expect(sent.name == "My phone")
        #expect(sent.credential.id == Self.base64URL("credential-1"))
        #expect(try await session.passkeys().map(\.name) == ["My phone"])
    }

    @Test("signInWithPasskey signs in as the passkey's account; the options call carries no credentials")
    func signIn() async throws {
        let authenticator = FakePasskeyAuthenticator()
        let created = try await session.signUpWithPasskey(authenticator: authenticator).user
        try await session.logout()
        #expect(await session.state == .signedOut)
        let user = try await session.signInWithPasskey(authenticator: authenticator)
        #expect(user == created)
        #expect(await session.state == .signedIn(created))
        let options = try #require(authenticator.receivedRequestOptions.first)
        #expect(options.rpId == FakeAuthServer.passkeyRelyingParty)
        #expect(options.allowCredentials.isEmpty)
        let optionsRequest = try #require(
            server.requests.last { $0.path == "/auth/passkeys/authentication/options" })
        #expect(optionsRequest.authorization == nil)
        let signIn = try #require(server.requests.last { $0.path == "/auth/passkeys/authentication" })
        #expect(signIn.authStrategy == "bearer")
        #expect(signIn.authorization == nil)
        #expect(try await session.passkeys().first?.lastUsedAt != nil)
    }

    @Test("addPasskey registers on the signed-in account with its bearer token; the options exclude its passkeys")
    func add() async throws {
        try await fixture.signIn()
        let authenticator = FakePasskeyAuthenticator()
        let first = try await session.addPasskey(name: "Laptop", authenticator: authenticator)
        #expect(first.name == "Laptop")
        let second = try await session.addPasskey(authenticator: authenticator)
        #expect(second.name == "Passkey")
        let options = authenticator.receivedCreationOptions
        #expect(options.count == 2)
        #expect(options[0].excludeCredentials.isEmpty)
        #expect(options[1].excludeCredentials.map(\.id) == [first.id])
        #expect(options[1].user.id == FakeAuthServer.passkeyHandle(FakeAuthServer.user))
        #expect(
            fixture.authorizations("/auth/passkeys/registration/options") == ["Bearer access-1", "Bearer access-1"])
        #expect(fixture.authorizations("/auth/passkeys/registration") == ["Bearer access-1", "Bearer access-1"])
        #expect(try await session.passkeys() == [first, second])
        // Still signed in as before: registering a passkey is not a sign-in.
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(try await session.accessToken() == "access-1")
    }

    @Test("rename and delete address the passkey by id; the list follows")
    func renameAndDelete() async throws {
        try await fixture.signIn()
        let authenticator = FakePasskeyAuthenticator()
        let first = try await session.addPasskey(name: "One", authenticator: authenticator)
        let second = try await session.addPasskey(name: "Two", authenticator: authenticator)
        let renamed = try await session.renamePasskey(id: first.id, to: "Work phone")
        #expect(renamed.name == "Work phone")
        #expect(renamed.id == first.id)
        let patch = try #require(server.requests.last)
        #expect(patch.method == "PATCH")
        #expect(patch.path == "/auth/passkeys/\(first.id)")
        #expect(
            try JSONDecoder().decode(PasskeyRenameRequest.self, from: try #require(patch.body)).name == "Work phone")
        try await session.deletePasskey(id: second.id)
        #expect(server.requests.last?.method == "DELETE")
        #expect(try await session.passkeys().map(\.name) == ["Work phone"])
    }

    @Test("an id outside base64url's alphabet stays inside /auth/passkeys/: escaped, answered 404 notFound")
    func hostileID() async throws {
        try await fixture.signIn()
        #expect(AuthSession.passkeyPath("a/../b?c") == "auth/passkeys/a%2F%2E%2E%2Fb%3Fc")
        let error = try await #require(throws: TokenClientError.self) {
            try await session.deletePasskey(id: "../../auth/account")
        }
        #expect(error.passkeyFailure == .notFound)
        let recorded = try #require(server.requests.last)
        #expect(recorded.path.hasPrefix("/auth/passkeys/"))
        #expect(!recorded.path.dropFirst("/auth/passkeys/".count).contains("/"))
    }

    @Test("deleting the only passkey of an account without a password is 409 lastSignInMethod; it stays")
    func lastSignInMethod() async throws {
        let authenticator = FakePasskeyAuthenticator()
        try await session.signUpWithPasskey(authenticator: authenticator)
        let only = try #require(try await session.passkeys().first)
        let error = try await #require(throws: TokenClientError.self) { try await session.deletePasskey(id: only.id) }
        #expect(
            error
                == .server(status: 409, body: ErrorBody(error: .lastSignInMethod, message: "test last_sign_in_method")))
        #expect(error.passkeyFailure == .lastSignInMethod)
        #expect(try await session.passkeys() == [only])
        // With a second passkey the first may go.
        try await session.addPasskey(authenticator: authenticator)
        try await session.deletePasskey(id: only.id)
        #expect(try await session.passkeys().count == 1)
    }

    @Test("a credential the server refuses is 401 invalidCredential: no refresh, the session stays signed in")
    func refusedRegistration() async throws {
        try await fixture.signIn()
        let options = try await session.passkeyRegistrationOptions()
        let credential = PasskeyRegistrationCredential(
            credentialID: [1, 2, 3],
            clientDataJSON: FakePasskeyAuthenticator.clientData("webauthn.get", options.challenge),
            attestationObject: [0xa0])
        let error = try await #require(throws: TokenClientError.self) { try await session.registerPasskey(credential) }
        #expect(error.code == .invalidCredential)
        #expect(error.passkeyFailure == .invalidCredential)
        #expect(server.count("/auth/refresh") == 0)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(try await session.accessToken() == "access-1")
    }

    @Test("a refused passkey sign-in leaves the signed-in session as it was")
    func refusedSignIn() async throws {
        try await fixture.signIn()
        let options = try await session.passkeySignInOptions()
        let unknown = PasskeyAssertionCredential(
            credentialID: [9], clientDataJSON: FakePasskeyAuthenticator.clientData("webauthn.get", options.challenge),
            authenticatorData: [1], signature: [2], userHandle: [3])
        let error = try await #require(throws: TokenClientError.self) { try await session.signIn(passkey: unknown) }
        #expect(error.passkeyFailure == .invalidCredential)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
        #expect(try await session.accessToken() == "access-1")
    }

    @Test("sign-up options: 403 registrationClosed, 409 emailTaken; a passkey server off is 404 notFound")
    func signUpRefusals() async throws {
        let authenticator = FakePasskeyAuthenticator()
        let taken = try await #require(throws: TokenClientError.self) {
            try await session.signUpWithPasskey(email: FakeAuthServer.email, authenticator: authenticator)
        }
        #expect(taken.code == .emailTaken)
        #expect(taken.passkeyFailure == .emailTaken)
        #expect(taken.emailFailure == .emailTaken)
        server.configure { $0.passkeys.registrationOpen = false }
        let closed = try await #require(throws: TokenClientError.self) {
            try await session.signUpWithPasskey(authenticator: authenticator)
        }
        #expect(closed.passkeyFailure == .registrationClosed)
        server.configure { $0.passkeys.enabled = false }
        let off = try await #require(throws: TokenClientError.self) {
            try await session.signInWithPasskey(authenticator: authenticator)
        }
        #expect(off.passkeyFailure == .notFound)
        // The authenticator was never asked: every refusal came with the options.
        #expect(authenticator.receivedCreationOptions.isEmpty)
        #expect(authenticator.receivedRequestOptions.isEmpty)
        #expect(await session.state == .signedOut)
    }

    @Test("an email taken between the options and the sign-up is 409 emailTaken; nothing is signed in")
    func emailTakenMeanwhile() async throws {
        let options = try await session.passkeySignUpOptions(email: "late@example.com")
        server.configure { _ = $0.passkeys.takenEmails.insert("late@example.com") }
        let credential = PasskeyRegistrationCredential(
            credentialID: [4],
            clientDataJSON: FakePasskeyAuthenticator.clientData("webauthn.create", options.challenge),
            attestationObject: [0xa0])
        let error = try await #require(throws: TokenClientError.self) { try await session.signUp(passkey: credential) }
        #expect(error.passkeyFailure == .emailTaken)
        #expect(await session.state == .signedOut)
    }

    @Test(
        "every refusal maps to its PasskeyFailure; other errors map to none",
        arguments: [
            (401, ErrorCode.invalidCredential, PasskeyFailure?.some(.invalidCredential)),
            (409, .lastSignInMethod, .lastSignInMethod), (403, .registrationClosed, .registrationClosed),
            (409, .emailTaken, .emailTaken), (404, .notFound, .notFound), (429, .tooManyRequests, .tooManyRequests),
            (400, .invalidRequest, nil), (401, .invalidCredentials, nil), (503, .unavailable, nil),
        ])
    func mapping(status: Int, code: ErrorCode, failure: PasskeyFailure?) async throws {
        server.configure { $0.passkeys.failure = (status, code) }
        let error = try await #require(throws: TokenClientError.self) { try await session.passkeySignInOptions() }
        #expect(error == .server(status: status, body: ErrorBody(error: code, message: "test \(code)")))
        #expect(error.passkeyFailure == failure)
        #expect(TokenClientError.transport("offline").passkeyFailure == nil)
    }

    @Test("the authenticator's error passes through unchanged and nothing is sent after the options")
    func authenticatorCancels() async throws {
        try await fixture.signIn()
        let authenticator = FakePasskeyAuthenticator(failure: .cancelled)
        await #expect(throws: PasskeyAuthenticatorError.cancelled) {
            try await session.addPasskey(authenticator: authenticator)
        }
        await #expect(throws: PasskeyAuthenticatorError.cancelled) {
            try await session.signInWithPasskey(authenticator: authenticator)
        }
        #expect(server.count("/auth/passkeys/registration") == 0)
        #expect(server.count("/auth/passkeys/authentication") == 0)
        #expect(await session.state == .signedIn(FakeAuthServer.user))
    }

    @Test("signed out, the account's calls throw signedOut without a request")
    func signedOut() async throws {
        await #expect(throws: TokenClientError.signedOut) { try await session.passkeys() }
        await #expect(throws: TokenClientError.signedOut) { try await session.passkeyRegistrationOptions() }
        await #expect(throws: TokenClientError.signedOut) { try await session.deletePasskey(id: "abc") }
        #expect(server.requests.isEmpty)
    }

    @Test("with DPoP, the passkey sign-up and sign-in bind the session like login; the registration presents DPoP")
    func dpopBinding() async throws {
        let dpop = DPoPFixture()
        let authenticator = FakePasskeyAuthenticator()
        try await dpop.session.signUpWithPasskey(authenticator: authenticator)
        #expect(try dpop.tokens.load()?.tokenType == "DPoP")
        let keyX = try #require(try dpop.storedKeyX())
        let signUp = try #require(dpop.server.proofs("/auth/passkeys/signup").first)
        #expect(signUp.keyX == keyX && signUp.ath == nil && signUp.htm == "POST")
        #expect(signUp.htu == "https://api.example.test/auth/passkeys/signup")
        try await dpop.session.addPasskey(authenticator: authenticator)
        let registration = try #require(dpop.server.requests.last { $0.path == "/auth/passkeys/registration" })
        #expect(registration.authorization == "DPoP access-1")
        #expect(dpop.server.proofs("/auth/passkeys/registration").first?.ath != nil)
        try await dpop.session.logout()
        try await dpop.session.signInWithPasskey(authenticator: authenticator)
        #expect(try dpop.tokens.load()?.tokenType == "DPoP")
        let signIn = try #require(dpop.server.proofs("/auth/passkeys/authentication").first)
        let newKeyX = try dpop.storedKeyX()
        #expect(signIn.ath == nil && signIn.keyX == newKeyX)
        #expect(try await dpop.session.passkeys().count == 2)
        #expect(dpop.server.requests.last?.authorization == "DPoP access-2")
    }

    static func base64URL(_ text: String) -> String { FakeAuthServer.base64URL(Data(text.utf8)) }
}
