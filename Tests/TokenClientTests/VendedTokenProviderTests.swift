import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting

@Suite("VendedTokenProvider")
struct VendedTokenProviderTests {
    let clock = TestClock()
    let server: FakeAuthServer
    let session: AuthSession

    init() async throws {
        server = FakeAuthServer(clock: clock)
        server.configure {
            $0.vendors["chat"] = FakeVendor(ttl: 600)
            $0.vendors["video"] = FakeVendor(
                shape: .liveKit(serverURL: "wss://video.example.test"), ttl: 600,
                parameters: ["room_name", "participant_name"])
            $0.vendors["custom"] = FakeVendor(parameters: ["room", "count", "muted", "customerIds"])
        }
        session = AuthSession(
            baseURL: try #require(URL(string: "https://api.example.test/")),
            transport: server,
            now: clock.closure
        )
        try await session.login(email: "ada@example.com", password: FakeAuthServer.password)
    }

    func provider(
        _ vendor: String, _ parameters: [String: VendorParameterValue] = [:], margin: TimeInterval = 60
    ) -> VendedTokenProvider<AuthSession> {
        VendedTokenProvider(
            session: session, vendor: vendor, parameters: parameters, margin: margin, now: clock.closure)
    }

    func decodedBody() throws -> [String: VendorParameterValue] {
        let body = try #require(server.requests.last?.body)
        return try JSONDecoder().decode([String: VendorParameterValue].self, from: body)
    }

    @Test("POSTs the parameters as one JSON object to /vend/<vendor> with the user's bearer token")
    func postsParameters() async throws {
        let parameters: [String: VendorParameterValue] = [
            "room": "lobby", "count": 3, "muted": false, "customerIds": .customerIds(["crm": "C-42"]),
        ]
        let token = try await provider("custom", parameters).token()
        #expect(FakeAuthServer.claims(of: token)?["vendor"] as? String == "custom")
        let request = try #require(server.requests.last)
        #expect(request.method == "POST" && request.path == "/vend/custom")
        #expect(request.authorization == "Bearer access-1")
        #expect(try decodedBody() == parameters)
    }

    @Test(
        "each parameter is encoded as its JSON type",
        arguments: [
            ("room", VendorParameterValue.string("lobby"), #"{"room":"lobby"}"#),
            ("count", .integer(3), #"{"count":3}"#),
            ("muted", .bool(true), #"{"muted":true}"#),
            ("customerIds", .customerIds(["crm": "C-42"]), #"{"customerIds":{"crm":"C-42"}}"#),
        ])
    func encodesTypes(name: String, value: VendorParameterValue, json: String) async throws {
        _ = try await provider("custom", [name: value]).token()
        let body = try #require(server.requests.last?.body)
        #expect(String(decoding: body, as: UTF8.self) == json)
    }

    @Test("literals pick the parameter's case")
    func literals() {
        let parameters: [String: VendorParameterValue] = ["a": "x", "b": 7, "c": true]
        #expect(parameters == ["a": .string("x"), "b": .integer(7), "c": .bool(true)])
    }

    @Test("a provider without parameters sends an empty object")
    func emptyBody() async throws {
        _ = try await provider("chat").token()
        let body = try #require(server.requests.last?.body)
        #expect(String(decoding: body, as: UTF8.self) == "{}")
    }

    @Test("expiresAt sets the expiry even when it disagrees with expiresIn")
    func prefersExpiresAt() async throws {
        server.configure { $0.vendors["chat"]?.expiresAtOffset = -100 }
        let token = try await provider("chat").currentToken()
        let expiresAt = clock.now.addingTimeInterval(500)
        #expect(token.expiresAt == expiresAt)
        #expect(token.refreshAt == expiresAt.addingTimeInterval(-60))
    }

    @Test("without expiresAt the expiry is receipt plus expiresIn")
    func fallsBackToExpiresIn() async throws {
        server.configure { $0.vendors["chat"]?.expiresAtOffset = nil }
        clock.advance(by: 0.5)
        let token = try await provider("chat").currentToken()
        #expect(token.expiresAt == clock.now.addingTimeInterval(600))
    }

    @Test(
        "the token is served from cache until margin seconds before expiry, then fetched again",
        arguments: [0, 60, 120])
    func cachesUntilMargin(margin: Int) async throws {
        let chat = provider("chat", margin: TimeInterval(margin))
        let first = try await chat.token()
        clock.advance(by: TimeInterval(600 - margin - 1))
        #expect(try await chat.token() == first)
        #expect(server.count("/vend/chat") == 1)
        clock.advance(by: 1)
        let second = try await chat.token()
        #expect(second != first)
        #expect(server.count("/vend/chat") == 2)
    }

    @Test("100 concurrent callers on a cold cache share one request")
    func singleFlight() async throws {
        let chat = provider("chat")
        let gate = server.gate("/vend/chat")
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await chat.token() } }
            await gate.waitForArrivals(1)
            await gate.open()
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 100)
        #expect(Set(tokens).count == 1)
        #expect(server.count("/vend/chat") == 1)
    }

    @Test("invalidate forces the next call to fetch")
    func invalidateRefetches() async throws {
        let chat = provider("chat")
        let first = try await chat.token()
        await chat.invalidate()
        #expect(try await chat.token() != first)
        #expect(server.count("/vend/chat") == 2)
    }

    @Test("an unknown vendor is 404 not_found")
    func unknownVendor() async throws {
        let error = await #expect(throws: TokenClientError.self) { try await provider("nope").token() }
        #expect(error == .server(status: 404, body: ErrorBody(error: .notFound, message: "test not_found")))
    }

    @Test("an undeclared parameter is 400 invalid_request naming it")
    func undeclaredParameter() async throws {
        let error = await #expect(throws: TokenClientError.self) {
            try await provider("chat", ["participant_identity": "someone"]).token()
        }
        #expect(
            error
                == .server(
                    status: 400,
                    body: ErrorBody(error: .invalidRequest, message: "undeclared parameter participant_identity")))
    }

    @Test("customer ids that are not the user's are 403 insufficient_scope, and the failure is not cached")
    func foreignIDs() async throws {
        let custom = provider("custom", ["customerIds": .customerIds(["crm": "C-99"])])
        for _ in 0..<2 {
            let error = await #expect(throws: TokenClientError.self) { try await custom.token() }
            #expect(error?.code == .insufficientScope)
        }
        #expect(server.count("/vend/custom") == 2)
    }

    @Test("a 503 without Retry-After is thrown and the next call asks again")
    func unavailableWithoutRetryAfter() async throws {
        server.configure { $0.vendors["chat"]?.failure = (503, .unavailable) }
        let chat = provider("chat")
        let error = await #expect(throws: TokenClientError.self) { try await chat.token() }
        #expect(error == .server(status: 503, body: ErrorBody(error: .unavailable, message: "test unavailable")))
        server.configure { $0.vendors["chat"]?.failure = nil }
        _ = try await chat.token()
        #expect(server.count("/vend/chat") == 2)
    }

    @Test("after a 429 or 503 with Retry-After no request is sent until it has passed", arguments: [429, 503])
    func honoursRetryAfter(status: Int) async throws {
        server.configure {
            $0.vendors["chat"]?.failure = (status, status == 429 ? .tooManyRequests : .unavailable)
            $0.retryAfter = 30
        }
        let chat = provider("chat")
        let first = await #expect(throws: TokenClientError.self) { try await chat.token() }
        #expect(first?.code == (status == 429 ? .tooManyRequests : .unavailable))
        server.configure { $0.vendors["chat"]?.failure = nil }
        clock.advance(by: 29)
        let second = await #expect(throws: TokenClientError.self) { try await chat.token() }
        #expect(second == first)
        #expect(server.count("/vend/chat") == 1)
        clock.advance(by: 1)
        _ = try await chat.token()
        #expect(server.count("/vend/chat") == 2)
    }

    @Test("a Retry-After of a day is honoured for 5 minutes only")
    func clampsRetryAfter() async throws {
        server.configure {
            $0.vendors["chat"]?.failure = (503, .unavailable)
            $0.retryAfter = 86_400
        }
        let chat = provider("chat")
        await #expect(throws: TokenClientError.self) { try await chat.token() }
        server.configure { $0.vendors["chat"]?.failure = nil }
        clock.advance(by: 299)
        await #expect(throws: TokenClientError.self) { try await chat.token() }
        clock.advance(by: 1)
        _ = try await chat.token()
        #expect(server.count("/vend/chat") == 2)
    }

    @Test("invalidate ends a Retry-After wait")
    func invalidateEndsBackoff() async throws {
        server.configure {
            $0.vendors["chat"]?.failure = (503, .unavailable)
            $0.retryAfter = 60
        }
        let chat = provider("chat")
        await #expect(throws: TokenClientError.self) { try await chat.token() }
        server.configure { $0.vendors["chat"]?.failure = nil }
        await chat.invalidate()
        _ = try await chat.token()
        #expect(server.count("/vend/chat") == 2)
    }

    @Test("LiveKit's 201 answer gives the server URL and the participant token, whose exp schedules the refresh")
    func liveKitShape() async throws {
        let video = provider("video", ["room_name": "standup"])
        let (serverURL, token) = try await video.connectionDetails()
        #expect(serverURL == URL(string: "wss://video.example.test"))
        #expect(FakeAuthServer.claims(of: token)?["vendor"] as? String == "video")
        #expect(try decodedBody() == ["room_name": "standup"])
        #expect(try await video.token() == token)
        let current = try await video.currentToken()
        let exp = Date(timeIntervalSince1970: clock.now.timeIntervalSince1970.rounded(.down) + 600)
        #expect(current.expiresAt == exp && current.refreshAt == exp.addingTimeInterval(-60))
        clock.advance(by: 540)
        #expect(try await video.connectionDetails().token != token)
        #expect(server.count("/vend/video") == 2)
    }

    @Test("connectionDetails of a vendor answering {token, …} is an invalid response")
    func connectionDetailsNeedLiveKit() async throws {
        await #expect(throws: TokenClientError.invalidResponse) { try await provider("chat").connectionDetails() }
    }

    @Test("a signed-out session throws signedOut without a request")
    func signedOut() async throws {
        try await session.logout()
        await #expect(throws: TokenClientError.signedOut) { try await provider("chat").token() }
        #expect(server.count("/vend/chat") == 0)
    }
}
