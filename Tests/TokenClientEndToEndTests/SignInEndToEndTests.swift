import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// `AuthSession.signIn` against the real server and a fake Apple whose key URL is on loopback.
@Suite("TokenClient sign-in against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct SignInEndToEndTests {
    @Test("signIn with a server nonce creates the account and works like a login; a spent or made-up nonce is refused")
    func signIn() async throws {
        try await withIdentityProvider { live, _ in
            let session = live.session(now: { Date() })
            let subject = "001234.\(UUID().uuidString.lowercased())"
            let email = "client-\(UUID().uuidString.prefix(8).lowercased())@privaterelay.appleid.com"
            // The app fetches a nonce first and gives its SHA-256 to Apple, which puts that hash in the token.
            let nonce = try await session.signInNonce()
            #expect(nonce.sha256 == (try FakeIdentityProvider.hashedNonce(nonce.raw)))
            #expect(nonce.expiresIn == 600)
            let first = try await session.signIn(
                provider: "apple",
                idToken: try FakeIdentityProvider.token(subject: subject, email: email, nonce: nonce.raw),
                nonce: nonce.raw, name: .init(givenName: "Ada", familyName: "Lovelace"))
            #expect(first.created)
            #expect(first.user.email == email)
            #expect(await session.state == .signedIn(first.user))
            #expect(try await session.me().sub == first.user.id)
            let next = try await session.signInNonce()
            let second = try await session.signIn(
                provider: "apple", idToken: try FakeIdentityProvider.token(subject: subject, nonce: next.raw),
                nonce: next.raw)
            #expect(!second.created)
            #expect(second.user.id == first.user.id)
            // The nonce was consumed: a new token with it is refused.
            await #expect(throws: TokenClientError.self) {
                try await session.signIn(
                    provider: "apple", idToken: try FakeIdentityProvider.token(subject: subject, nonce: next.raw),
                    nonce: next.raw)
            }
            // So is a nonce the app made up.
            await #expect(throws: TokenClientError.self) {
                try await session.signIn(
                    provider: "apple", idToken: try FakeIdentityProvider.token(subject: subject, nonce: "n3"),
                    nonce: "n3")
            }
            // A refused sign-in leaves the signed-in session alone.
            #expect(try await session.me().sub == first.user.id)
        }
    }
}
