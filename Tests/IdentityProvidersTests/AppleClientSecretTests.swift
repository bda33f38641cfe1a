import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import StrictJSON
import Testing

@Suite struct AppleClientSecretTests {
    @Test(
        "the secret is an ES256 JWT {iss: team, sub: client, aud: Apple, iat, exp} with kid, verified by the JWT library"
    )
    func claims() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let secret = AppleClientSecret(configuration: try AppleTestKey.configuration(), now: clock.closure)
        let token = try secret.current()
        let (header, _) = try JWTKeySet.decode(token)
        #expect(header["alg"] == .string("ES256"))
        #expect(header["kid"] == .string("KEY1234567"))
        let publicKey = try JWTKey(kid: "KEY1234567", algorithm: .es256, pem: try AppleTestKey.publicPEM)
        let keys = try JWTKeySet(keys: [publicKey], signingKID: nil)
        let claims: JWTClaims = try keys.verify(
            token,
            options: VerificationOptions(
                now: clock.now, issuer: "TEAM123456", audience: "https://appleid.apple.com"))
        #expect(claims.subject == "com.example.app")
        #expect(claims.issuedAt == 1_800_000_000)
        #expect(claims.expiration == 1_800_000_000 + AppleClientSecret.lifetime)
        #expect(AppleClientSecret.lifetime <= 180 * 86_400)
    }

    @Test("the secret is reused until an hour before its expiry, then minted anew")
    func cached() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let secret = AppleClientSecret(configuration: try AppleTestKey.configuration(), now: clock.closure)
        let first = try secret.current()
        clock.advance(Double(AppleClientSecret.lifetime - AppleClientSecret.renewBefore - 1))
        #expect(try secret.current() == first)
        clock.advance(1)
        let second = try secret.current()
        #expect(second != first)
        #expect(try secret.current() == second)
    }

    @Test("tasks asking at once all get the one cached secret")
    func concurrent() async throws {
        let secret = AppleClientSecret(configuration: try AppleTestKey.configuration())
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<32 { group.addTask { try secret.current() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
    }
}
