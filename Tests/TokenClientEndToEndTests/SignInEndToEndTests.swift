import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

/// `AuthSession.signIn` against the real server and a fake Apple whose key URL is on loopback.
@Suite("TokenClient sign-in against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct SignInEndToEndTests {
    @Test("signIn creates the account, the session then works like a login's, and a second signIn finds it")
    func signIn() async throws {
        try await withIdentityProvider { live, _ in
            let session = live.session(now: { Date() })
            let subject = "001234.\(UUID().uuidString.lowercased())"
            let email = "client-\(UUID().uuidString.prefix(8).lowercased())@privaterelay.appleid.com"
            let first = try await session.signIn(
                provider: "apple", idToken: try FakeIdentityProvider.token(subject: subject, email: email, nonce: "n1"),
                nonce: "n1", name: .init(givenName: "Ada", familyName: "Lovelace"))
            #expect(first.created)
            #expect(first.user.email == email)
            #expect(await session.state == .signedIn(first.user))
            #expect(try await session.me().sub == first.user.id)
            let second = try await session.signIn(
                provider: "apple", idToken: try FakeIdentityProvider.token(subject: subject, nonce: "n2"), nonce: "n2")
            #expect(!second.created)
            #expect(second.user.id == first.user.id)
            await #expect(throws: TokenClientError.self) {
                try await session.signIn(
                    provider: "apple", idToken: try FakeIdentityProvider.token(subject: subject, nonce: "n3"),
                    nonce: "wrong")
            }
            // A refused sign-in leaves the signed-in session alone.
            #expect(try await session.me().sub == first.user.id)
        }
    }
}
