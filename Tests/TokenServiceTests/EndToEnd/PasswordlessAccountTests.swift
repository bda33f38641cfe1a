import Foundation
import JWT
import Logging
import Store
import StrictJSON
import Testing
import TokenServiceTesting

@testable import TokenService

/// Accounts made from an identity (issue 17): no password, perhaps no email.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct PasswordlessAccountTests {
    private static let secret = String(repeating: "passwordless-secret-", count: 4)

    private func issuer() throws -> AccessTokenIssuer {
        let keys = try JWTKeySet(
            keys: [try HMACKey(kid: "k1", algorithm: .hs512, secret: Self.secret)], signingKID: "k1")
        return AccessTokenIssuer(keys: keys, issuer: "tokenvend", audience: "tokenvend", lifetime: 900, leeway: 30)
    }

    private static func payload(_ token: String) throws -> [String: Any] {
        var part = String(token.split(separator: ".")[1])
        part = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the session purger forgets used ID tokens 5 minutes after they expired, and only those")
    func purgerPrunesTokenUses() async throws {
        try await withTestServer { server in
            let identities = server.server.backend.identities
            let now = Date()
            let expired = String(repeating: "1", count: 64)
            let recent = String(repeating: "3", count: 64)
            let live = String(repeating: "2", count: 64)
            // Expired ten minutes ago, one minute ago (within the margin) and valid for an hour: the same on the
            // caller's and on PostgreSQL's clock.
            let first = try await identities.recordUse(
                tokenHash: expired, expiresAt: now.addingTimeInterval(-600), now: now)
            let second = try await identities.recordUse(
                tokenHash: live, expiresAt: now.addingTimeInterval(3600), now: now)
            let third = try await identities.recordUse(
                tokenHash: recent, expiresAt: now.addingTimeInterval(-60), now: now)
            #expect(first && second && third)
            let purger = SessionPurger(
                sessions: server.server.backend.sessions, identities: identities, logger: .init(label: "test"),
                now: { now })
            _ = await purger.purgeNow()
            await purger.stop()
            // The purger deleted the long-expired row (nothing is left to prune) and kept the others.
            #expect(try await identities.pruneUses(expiredBy: now) == 0)
            let kept = try await identities.recordUse(
                tokenHash: live, expiresAt: now.addingTimeInterval(3600), now: now)
            let keptRecent = try await identities.recordUse(
                tokenHash: recent, expiresAt: now.addingTimeInterval(-60), now: now)
            let forgotten = try await identities.recordUse(
                tokenHash: expired, expiresAt: now.addingTimeInterval(-600), now: now)
            #expect(!kept && !keptRecent && forgotten)
        }
    }

    @Test("the session purger deletes expired server-issued nonces and keeps the others")
    func purgerPrunesNonces() async throws {
        try await withTestServer { server in
            let identities = server.server.backend.identities
            let now = Date()
            let expired = String(repeating: "4", count: 64)
            let live = String(repeating: "5", count: 64)
            let first = try await identities.issueNonce(
                hash: expired, expiresAt: now.addingTimeInterval(-1), maxPending: 10, now: now.addingTimeInterval(-601))
            let second = try await identities.issueNonce(
                hash: live, expiresAt: now.addingTimeInterval(600), maxPending: 10, now: now)
            #expect(first && second)
            let purger = SessionPurger(
                sessions: server.server.backend.sessions, identities: identities, logger: .init(label: "test"),
                now: { now })
            _ = await purger.purgeNow()
            await purger.stop()
            // The purger deleted the expired nonce (nothing is left to prune) and kept the live one.
            let leftOver = try await identities.pruneNonces(expiredBy: now)
            let consumed = try await identities.consumeNonce(hash: live, now: now)
            #expect(leftOver == 0 && consumed)
        }
    }

    @Test("a password login for an account without a password is the same 401 as a wrong password")
    func loginWithoutPassword() async throws {
        try await withTestServer { server in
            let user = try await server.signUp()
            let (linked, created) = try await server.server.backend.identities.createUser(
                email: "apple-only@example.com", emailVerifiedAt: Date(), provider: "apple", subject: "001.x")
            #expect(created && linked.passwordHash == nil)
            let json = { (email: String, password: String) in #"{"email":"\#(email)","password":"\#(password)"}"# }
            let wrong = try await server.request("POST", "/auth/login", json: json(user.email, "wrong password!"))
            for password in [TestServer.password, "", "wrong password!"] {
                let passwordless = try await server.request(
                    "POST", "/auth/login", json: json("apple-only@example.com", password))
                #expect(passwordless.status == 401)
                #expect(passwordless.errorCode == "invalid_credentials")
                #expect(passwordless.text == wrong.text)
            }
        }
    }

    @Test("an account without an email, with a session: refresh works, /auth/me has no email, registered is its id")
    func sessionWithoutEmail() async throws {
        // emailCustomerId on: an account with a verified email would get the email as `registered`.
        try await withTestServer(environment: ["TOKENVEND_STREAM_EMAIL_CUSTOMER_ID": "true"]) { server in
            let backend = server.server.backend
            let (user, created) = try await backend.identities.createUser(
                email: nil, emailVerifiedAt: Date(), provider: "apple", subject: "001.no-email")
            #expect(created && user.email == nil)
            // A session as a sign-in makes it, and its refresh token as the server encodes it.
            let session = try await backend.sessions.create(
                userID: user.id, userAgent: "test", ip: "127.0.0.1", now: Date(), refreshTTL: .seconds(3600),
                maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
            ).session
            let codec = try RefreshTokenCodec(secret: try #require(server.configuration.refreshToken.secret).bytes)
            let refreshToken = try #require(codec.encode(sessionID: session.id, counter: session.counter))
            let refreshed = try await server.request(
                "POST", "/auth/refresh", headers: ["X-Auth-Strategy": "bearer"],
                json: #"{"refreshToken":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 200)
            let body = try refreshed.object()
            let access = try #require(body["accessToken"] as? String)
            let wireUser = try #require(body["user"] as? [String: Any])
            #expect(wireUser["id"] as? String == user.id && wireUser["email"] == nil)
            #expect(try Self.payload(access)["email"] == nil)
            let me = try await server.request("GET", "/auth/me", headers: ["Authorization": "Bearer \(access)"])
            #expect(me.status == 200)
            let meBody = try me.object()
            #expect(meBody["sub"] as? String == user.id)
            #expect(!meBody.keys.contains("email"))
            let stream = try await server.request(
                "POST", "/stream-token", headers: ["Authorization": "Bearer \(access)"], json: nil)
            #expect(stream.status == 200)
            let token = try #require(try stream.object()["token"] as? String)
            let ids = try StreamTokenTests.verifyIndependently(token, secret: TestServer.streamSecret).payload["ids"]
            #expect(ids as? [String: String] == ["registered": user.id])
        }
    }

    @Test("the access token of an account without an email has no email claim and verifies")
    func tokenWithoutEmail() throws {
        let issuer = try issuer()
        let now = Date()
        let user = Store.User(
            id: "u-anon", email: nil, passwordHash: nil, role: "user", tenantID: nil, disabledAt: nil, createdAt: now)
        let token = try issuer.issue(for: user, sessionID: "s-1", authTime: now, now: now).token
        let claims = try Self.payload(token)
        #expect(claims["email"] == nil)
        #expect(claims["sub"] as? String == "u-anon" && claims["role"] as? String == "user")
        let verified = try issuer.verify(token, now: now)
        #expect(verified.email == nil && verified.subject == "u-anon")
        // An unverified email is not asserted either (issue 30); a verified one is, with email_verified.
        var withEmail = user
        withEmail.email = "ada@example.com"
        let unverified = try issuer.issue(for: withEmail, sessionID: "s-1", authTime: now, now: now).token
        #expect(try Self.payload(unverified)["email"] == nil && Self.payload(unverified)["email_verified"] == nil)
        #expect(try issuer.verify(unverified, now: now).email == nil)
        withEmail.emailVerifiedAt = now
        let other = try issuer.issue(for: withEmail, sessionID: "s-1", authTime: now, now: now).token
        let otherClaims = try Self.payload(other)
        #expect(otherClaims["email"] as? String == "ada@example.com" && otherClaims["email_verified"] as? Bool == true)
        #expect(try issuer.verify(other, now: now).email == "ada@example.com")
    }

    @Test("an access token with email but without email_verified true (issued before issue 30) asserts no email")
    func emailWithoutVerifiedFlag() throws {
        let keys = try JWTKeySet(
            keys: [try HMACKey(kid: "k1", algorithm: .hs512, secret: Self.secret)], signingKID: "k1")
        let now = Int64(Date().timeIntervalSince1970)
        for flag: JSONValue? in [nil, .bool(false), .string("true"), .null] {
            var claims: JWTClaims = [
                "iss": "tokenvend", "aud": "tokenvend", "sub": "u-1", "sid": "s-1", "iat": .integer(now),
                "exp": .integer(now + 900), "jti": "j", "email": "ada@example.com", "role": "user",
                "tenantId": .null,
            ]
            if let flag { claims["email_verified"] = flag }
            let token = try keys.signer(header: .standard(type: "at+jwt")).sign(claims)
            #expect(try issuer().verify(token, now: Date()).email == nil, "\(String(describing: flag))")
        }
    }

    @Test("an access token whose email claim is not a string is refused")
    func emailClaimNotString() throws {
        let keys = try JWTKeySet(
            keys: [try HMACKey(kid: "k1", algorithm: .hs512, secret: Self.secret)], signingKID: "k1")
        let now = Int64(Date().timeIntervalSince1970)
        let claims: JWTClaims = [
            "iss": "tokenvend", "aud": "tokenvend", "sub": "u-1", "sid": "s-1", "iat": .integer(now),
            "exp": .integer(now + 900), "jti": "j", "email": .integer(5), "role": "user", "tenantId": .null,
        ]
        let token = try keys.signer(header: .standard(type: "at+jwt")).sign(claims)
        #expect(throws: JWTError.invalidClaim("email")) { try issuer().verify(token, now: Date()) }
    }
}
