import Foundation
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// The server's session purger also prunes the browser sign-in flows and one-time codes (issue 17).
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct OAuthFlowPurgeTests {
    @Test("the server's purger deletes expired flows and codes past the retention, and keeps the rest")
    func purgerPrunesFlows() async throws {
        // Times relative to now: the same on the caller's and on PostgreSQL's clock.
        let now = Date()
        try await withTestServer(now: { now }) { server in
            let oauth = server.server.backend.oauth
            let user = try await server.server.backend.users.create(
                id: UUID().uuidString.lowercased(), email: nil, passwordHash: nil, role: "user", tenantID: nil,
                emailVerifiedAt: nil, now: now)
            func flow(_ hash: String, expiresIn seconds: Double) -> OAuthFlow {
                OAuthFlow(
                    stateHash: hash, provider: "google", redirectURI: "https://app.example/cb", codeChallenge: "c",
                    appState: "s", nonce: "n", codeVerifier: "v", createdAt: now.addingTimeInterval(-3600),
                    expiresAt: now.addingTimeInterval(seconds))
            }
            func code(_ hash: String, expiresIn seconds: Double) -> AuthorizationCode {
                AuthorizationCode(
                    codeHash: hash, userID: user.id, provider: "google", redirectURI: "https://app.example/cb",
                    codeChallenge: "c", created: false, createdAt: now.addingTimeInterval(-3600),
                    expiresAt: now.addingTimeInterval(seconds))
            }
            try await oauth.saveFlow(flow("expired", expiresIn: -1))
            try await oauth.saveFlow(flow("live", expiresIn: 120))
            // Both used: one expired 20 minutes ago (past the 10-minute retention), one a minute ago.
            try await oauth.saveCode(code("old", expiresIn: -1200))
            try await oauth.saveCode(code("recent", expiresIn: -60))
            for hash in ["old", "recent"] {
                _ = try await oauth.redeemCode(codeHash: hash, now: now.addingTimeInterval(-1300))
            }
            _ = await server.server.sessionPurger.purgeNow()
            // Nothing left for the purger: it deleted the expired flow and the old code.
            #expect(try await oauth.pruneFlows(now: now) == 0)
            #expect(try await oauth.redeemCode(codeHash: "old", now: now) == .unknown)
            #expect(
                try await oauth.redeemCode(codeHash: "recent", now: now) == .replayed(userID: user.id, sessionID: nil))
            #expect(try await oauth.takeFlow(stateHash: "live", now: now)?.stateHash == "live")
        }
    }
}
