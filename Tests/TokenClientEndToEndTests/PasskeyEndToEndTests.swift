import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// TokenClient's passkey calls against the real server, with the software authenticator (every ceremony also
/// checked by py_webauthn): sign-up, sign-in, a passkey added to a password account, list/rename/delete, the refusals
/// as `PasskeyFailure`, and DPoP binding at the passkey token endpoints. On PostgreSQL through the end-to-end lane.
@Suite(
    "TokenClient passkeys against the real server", .tags(.integration), .serialized, .passkeyServer,
    .timeLimit(.minutes(1)))
struct PasskeyEndToEndTests {
    @Test("signUpWithPasskey makes a passwordless account signed in like a login; signInWithPasskey signs in to it")
    func signUpThenSignIn() async throws {
        let server = try PasskeyServer.shared()
        let authenticator = try await server.newAuthenticator()
        let session = server.live.session(now: { Date() })
        let email = PasskeyServer.email("passkey")
        let result = try await session.signUpWithPasskey(email: email, name: "Phone", authenticator: authenticator)
        #expect(result.created)
        #expect(result.user.email == email)
        #expect(await session.state == .signedIn(result.user))
        #expect(try await session.me().sub == result.user.id)
        let options = try #require(authenticator.receivedCreationOptions.first)
        #expect(options.rp.id == PasskeyServer.rpID && options.user.name == email)
        #expect(options.excludeCredentials.isEmpty)
        let listed = try await session.passkeys()
        #expect(listed.map(\.name) == ["Phone"])
        #expect(listed.first?.lastUsedAt == nil)
        // No password: the login with any password is refused.
        let other = server.live.session(now: { Date() })
        await #expect(throws: TokenClientError.self) {
            try await other.login(email: email, password: TestServer.password)
        }

        try await session.logout()
        #expect(await session.state == .signedOut)
        let user = try await session.signInWithPasskey(authenticator: authenticator)
        #expect(user.id == result.user.id)
        #expect(await session.state == .signedIn(user))
        #expect(try await session.me().sub == user.id)
        #expect(try await session.passkeys().first?.lastUsedAt != nil)
        // Its only way in: the passkey cannot be deleted.
        let only = try #require(listed.first)
        let refused = try await #require(throws: TokenClientError.self) { try await session.deletePasskey(id: only.id) }
        #expect(refused.passkeyFailure == .lastSignInMethod)
        #expect(try await session.passkeys().map(\.id) == [only.id])
    }

    @Test("addPasskey adds passkeys to a password account; each signs in; list, rename and delete them")
    func addListRenameDelete() async throws {
        let server = try PasskeyServer.shared()
        let session = server.live.session(now: { Date() })
        try await server.live.signUp(session, email: PasskeyServer.email("password"))
        let owner = try #require(await session.user)
        let phone = try await server.newAuthenticator()
        let laptop = try await server.newAuthenticator()
        let first = try await session.addPasskey(name: "Phone", authenticator: phone)
        let second = try await session.addPasskey(authenticator: laptop)
        #expect(first.name == "Phone" && second.name == "Passkey")
        #expect(first.lastUsedAt == nil && first.deviceType == .singleDevice && !first.backedUp)
        // The second ceremony excludes the first passkey, for the same user handle.
        let firstOptions = try #require(phone.receivedCreationOptions.first)
        let secondOptions = try #require(laptop.receivedCreationOptions.first)
        #expect(secondOptions.excludeCredentials.map(\.id) == [first.id])
        #expect(secondOptions.user.id == firstOptions.user.id)
        // Adding a passkey is not a sign-in: the session is the same account, still signed in.
        #expect(await session.state == .signedIn(owner))
        #expect(try await session.passkeys().map(\.id) == [first.id, second.id])

        // Each passkey signs in to the account, from another session.
        for authenticator in [phone, laptop] {
            let device = server.live.session(now: { Date() })
            #expect(try await device.signInWithPasskey(authenticator: authenticator).id == owner.id)
        }

        let renamed = try await session.renamePasskey(id: second.id, to: "Laptop")
        #expect(renamed.id == second.id && renamed.name == "Laptop")
        try await session.deletePasskey(id: first.id)
        #expect(try await session.passkeys().map(\.name) == ["Laptop"])
        // The account has a password: its last passkey may go too.
        try await session.deletePasskey(id: second.id)
        #expect(try await session.passkeys().isEmpty)
        // A deleted passkey no longer signs in.
        let stale = try await #require(throws: TokenClientError.self) {
            try await server.live.session(now: { Date() }).signInWithPasskey(authenticator: laptop)
        }
        #expect(stale.passkeyFailure == .invalidCredential)
    }

    @Test("the server's refusals arrive as PasskeyFailure: replayed assertion, taken email, another account's passkey")
    func refusals() async throws {
        let server = try PasskeyServer.shared()
        let authenticator = try await server.newAuthenticator()
        let session = server.live.session(now: { Date() })
        let email = PasskeyServer.email("refusal")
        try await session.signUpWithPasskey(email: email, authenticator: authenticator)
        let mine = try #require(try await session.passkeys().first)

        // One assertion signs in once: the challenge is spent.
        let options = try await session.passkeySignInOptions()
        let assertion = try await authenticator.makeAssertion(for: options)
        try await session.signIn(passkey: assertion)
        let replayed = try await #require(throws: TokenClientError.self) {
            try await session.signIn(passkey: assertion)
        }
        #expect(replayed.passkeyFailure == .invalidCredential)
        #expect(await session.state.isSignedIn)

        let taken = try await #require(throws: TokenClientError.self) {
            try await server.live.session(now: { Date() }).signUpWithPasskey(
                email: email, authenticator: try await server.newAuthenticator())
        }
        #expect(taken.passkeyFailure == .emailTaken)

        // Another account sees none of this account's passkeys.
        let stranger = server.live.session(now: { Date() })
        try await server.live.signUp(stranger, email: PasskeyServer.email("stranger"))
        let notTheirs = try await #require(throws: TokenClientError.self) {
            try await stranger.renamePasskey(id: mine.id, to: "Mine now")
        }
        #expect(notTheirs.passkeyFailure == .notFound)
        await #expect(throws: TokenClientError.self) { try await stranger.deletePasskey(id: mine.id) }
        #expect(try await stranger.passkeys().isEmpty)
        #expect(try await session.passkeys().map(\.name) == [mine.name])
    }

    @Test("with registration closed the sign-up options are 403 registrationClosed; without passkeys, 404 notFound")
    func closedAndOff() async throws {
        let server = try PasskeyServer.shared()
        let authenticator = try await server.newAuthenticator()
        var closed = PasskeyServer.environment
        closed["TOKENVEND_REGISTRATION_ENABLED"] = "false"
        try await withTestServer(environment: closed) { live in
            let refused = try await #require(throws: TokenClientError.self) {
                try await live.session(now: { Date() }).signUpWithPasskey(authenticator: authenticator)
            }
            #expect(refused.passkeyFailure == .registrationClosed)
        }
        try await withTestServer { live in
            let off = try await #require(throws: TokenClientError.self) {
                try await live.session(now: { Date() }).signInWithPasskey(authenticator: authenticator)
            }
            #expect(off.passkeyFailure == .notFound)
        }
        #expect(authenticator.receivedCreationOptions.isEmpty)
    }

    @Test("a DPoP session's passkey sign-up and sign-in are bound to its key; adding a passkey presents DPoP")
    func dpopBinding() async throws {
        let server = try PasskeyServer.shared()
        let authenticator = try await server.newAuthenticator()
        let store = InMemoryTokenStore()
        let keys = InMemoryDPoPKeyStore()
        let session = AuthSession(
            baseURL: server.live.baseURL, transport: TestServer.transport, store: store,
            dpop: DPoPConfiguration(keyStore: keys, keyKind: .softwareP256))
        try await session.signUpWithPasskey(authenticator: authenticator)
        let signedUp = try #require(store.load())
        #expect(signedUp.tokenType == "DPoP")
        let key = try DPoPKeyKind.softwareP256.restore(try #require(try keys.loadKey()))
        #expect(try DPoPEndToEndTests.jkt(signedUp.accessToken) == key.thumbprint)
        // A bound token is used as DPoP (a Bearer presentation would be refused).
        try await session.addPasskey(authenticator: try await server.newAuthenticator())
        #expect(try await session.passkeys().count == 2)

        try await session.logout()
        try await session.signInWithPasskey(authenticator: authenticator)
        let signedIn = try #require(store.load())
        #expect(signedIn.tokenType == "DPoP")
        let newKey = try DPoPKeyKind.softwareP256.restore(try #require(try keys.loadKey()))
        #expect(try DPoPEndToEndTests.jkt(signedIn.accessToken) == newKey.thumbprint)
        #expect(try await session.me().sub == signedIn.user?.id)
    }
}
