import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenService
import TokenServiceTesting

/// `VendedTokenProvider` and `BloomreachCustomerTokenProvider` against the real server's `POST /vend/{vendor}`;
/// every token's signature is checked with ``IndependentJWS`` (none of the project's code).
@Suite("Vended tokens against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct VendedTokenEndToEndTests {
    static let chatSecret = "chat-secret-chat-secret-chat-secret-0001"
    static let videoSecret = "video-secret-video-secret-video-secret-01"
    static let engagementSecret = "engagement-secret-engagement-secret-0001"
    static let vendors = #"""
        {"chat": {"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "\#(chatSecret)"},
         "video": {"preset": "livekit", "apiKey": "lk-key", "apiSecret": "\#(videoSecret)",
                   "serverURL": "wss://video.example.com"},
         "engagement": {"preset": "bloomreach-customer", "keyId": "br-key-1", "secret": "\#(engagementSecret)"},
         "later": {"preset": "stream-chat", "apiKey": "later-key"}}
        """#

    /// A server with ``vendors`` and a client session signed in as a new user, with that user's id.
    func withSignedInClient(_ body: (TestServer, AuthSession, String) async throws -> Void) async throws {
        try await withTestServer(environment: ["TOKENVEND_VENDORS": Self.vendors]) { live in
            let session = live.session(now: { Date() })
            try await live.signUp(session)
            try await body(live, session, try await session.me().sub)
        }
    }

    @Test("a stream-chat token carries the signed-in user's id, expires at expiresAt, and is served from cache")
    func streamChat() async throws {
        try await withSignedInClient { _, session, userID in
            let chat = VendedTokenProvider(session: session, vendor: "chat")
            let current = try await chat.currentToken()
            let (header, payload) = try IndependentJWS.verifyHS256(current.token, secret: Self.chatSecret)
            #expect(header as? [String: String] == ["alg": "HS256", "typ": "JWT"])
            #expect(payload["user_id"] as? String == userID)
            let exp = try #require(payload["exp"] as? Int)
            #expect(current.expiresAt == Date(timeIntervalSince1970: TimeInterval(exp)))
            #expect(current.refreshAt == current.expiresAt.addingTimeInterval(-60))
            #expect(try await chat.token() == current.token)
        }
    }

    @Test("a LiveKit vendor gives the server URL and a participant token for the requested room")
    func liveKit() async throws {
        try await withSignedInClient { _, session, userID in
            let video = VendedTokenProvider(
                session: session, vendor: "video", parameters: ["room_name": "standup", "participant_name": "Ada"])
            let (serverURL, token) = try await video.connectionDetails()
            #expect(serverURL.absoluteString == "wss://video.example.com")
            let (_, payload) = try IndependentJWS.verifyHS256(token, secret: Self.videoSecret)
            #expect(payload["sub"] as? String == userID)
            #expect(payload["name"] as? String == "Ada")
            #expect((payload["video"] as? [String: Any])?["room"] as? String == "standup")
            #expect(try await video.token() == token)
        }
    }

    @Test("bloomreach-customer: each call's ids are the token's sub, one token per id set")
    func bloomreachCustomer() async throws {
        try await withSignedInClient { live, session, userID in
            let accounts = try await AccountAdministration.open(configuration: live.configuration)
            try await accounts.setCustomerID(account: userID, key: "crm", value: "C-42")
            accounts.close()
            let tokens = BloomreachCustomerTokenProvider(session: session, vendor: "engagement")
            var seen: Set<String> = []
            for ids in [["registered": userID], ["crm": "C-42"], ["registered": userID, "crm": "C-42"]] {
                let token = try await tokens.token(customerIds: ids)
                let (header, payload) = try IndependentJWS.verifyHS256(token, secret: Self.engagementSecret)
                #expect(header["kid"] as? String == "br-key-1")
                #expect(payload["sub"] as? [String: String] == ids)
                #expect(try await tokens.token(customerIds: ids) == token)
                seen.insert(token)
            }
            #expect(seen.count == 3)
        }
    }

    @Test("bloomreach-customer: ids that are not the user's are 403 insufficient_scope")
    func foreignCustomerIDs() async throws {
        try await withSignedInClient { _, session, userID in
            let tokens = BloomreachCustomerTokenProvider(session: session, vendor: "engagement")
            for ids in [["registered": "someone-else"], ["registered": userID, "crm": "C-42"], [:]] {
                let error = await #expect(throws: TokenClientError.self) { try await tokens.token(customerIds: ids) }
                #expect(error?.code == .insufficientScope)
            }
        }
    }

    @Test("the blocking accessor, on a thread of its own, returns the customer token")
    func blockingAccessor() async throws {
        try await withSignedInClient { _, session, userID in
            let tokens = BloomreachCustomerTokenProvider(session: session, vendor: "engagement")
            let ids = ["registered": userID]
            let token = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: tokens.blockingToken(customerIds: ids)) }.start()
            }
            let (_, payload) = try IndependentJWS.verifyHS256(try #require(token), secret: Self.engagementSecret)
            #expect(payload["sub"] as? [String: String] == ids)
        }
    }

    @Test("an unknown vendor is 404, an undeclared parameter 400 naming it, a vendor without keys 503")
    func errors() async throws {
        try await withSignedInClient { _, session, _ in
            let unknown = await #expect(throws: TokenClientError.self) {
                try await VendedTokenProvider(session: session, vendor: "nope").token()
            }
            #expect(unknown?.code == .notFound)
            let undeclared = await #expect(throws: TokenClientError.self) {
                try await VendedTokenProvider(
                    session: session, vendor: "video",
                    parameters: ["room_name": "standup", "participant_identity": "someone-else"]
                ).token()
            }
            guard case .server(400, let body?) = undeclared else {
                Issue.record("expected 400 with a body, got \(String(describing: undeclared))")
                return
            }
            #expect(body.error == .invalidRequest && body.message.contains("participant_identity"))
            let later = VendedTokenProvider(session: session, vendor: "later")
            for _ in 0..<2 {
                let unavailable = await #expect(throws: TokenClientError.self) { try await later.token() }
                #expect(unavailable?.code == .unavailable)
            }
        }
    }
}
