import Foundation
import Synchronization
import Testing
import TokenService
import TokenServiceTesting

/// A stopped wall clock for a DPoP suite's server: proofs carry whole-second `iat`s, so a clock that moves only
/// when a test moves it makes "5 s ahead" and "older than 60 s" exact, never a race with the wall clock.
final class DPoPClock: Sendable {
    private let instant = Mutex(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))

    /// The server's now.
    var now: Date { instant.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) { instant.withLock { $0 += seconds } }
}

/// One real server (socket mode, port 0) on a ``DPoPClock``, and one scripts/dpop_proof.py, for a DPoP suite.
final class DPoPHarness: Sendable {
    /// The suite's harness, set by ``SharedDPoPServer`` around the suite.
    @TaskLocal static var current: DPoPHarness?

    /// Settings every DPoP suite's server gets: no per-address limit (the clock never advances a window) and a
    /// chat vendor for `/vend/chat`.
    static let baseEnvironment = [
        "TOKENVEND_RATE_LIMIT_REQUESTS_PER_ADDRESS_PER_MINUTE": "1000000",
        "TOKENVEND_VENDORS":
            #"{"chat": {"preset": "stream-chat", "apiKey": "chat-key", "apiSecret": "dpop-end-to-end-secret-0123456789"}}"#,
    ]

    let server: TestServer
    let maker: DPoPProofMaker
    let clock: DPoPClock
    /// `server.publicURL` when configured: then the `htu` of every proof starts with it.
    let publicURL: String?

    /// Starts a server with `environment` over ``baseEnvironment``, and a proof maker (or uses `maker`).
    init(environment: [String: String], maker: DPoPProofMaker? = nil, clock: DPoPClock = DPoPClock()) async throws {
        self.clock = clock
        let merged = Self.baseEnvironment.merging(environment) { $1 }
        publicURL = merged["TOKENVEND_SERVER_PUBLIC_URL"]
        server = try await TestServer(environment: merged, now: { clock.now })
        do {
            if let maker {
                self.maker = maker
            } else {
                self.maker = try await DPoPProofMaker.start()
            }
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The suite's harness; fails the test when the suite lacks ``SharedDPoPServer``.
    static func shared() throws -> DPoPHarness {
        try #require(current, "the suite needs the .sharedDPoPServer trait")
    }

    /// Stops the server and the proof maker.
    func stop() async {
        await server.stop()
        maker.stop()
    }

    /// The `htu` of `path`: `server.publicURL` + path, else `http://<Host>` + path as the test session sends it.
    func url(_ path: String) -> String {
        (publicURL ?? "http://127.0.0.1:\(server.port)") + path
    }

    /// A proof by `key` for `method` and `path` (on ``url(_:)``), `iat` on the server's clock unless given.
    func proof(
        _ key: DPoPProofMaker.Key, _ method: String, _ path: String, accessToken: String? = nil,
        nonce: String? = nil, iat: Date? = nil, jti: String? = nil, tamper: DPoPProofMaker.Tamper? = nil
    ) async throws -> String {
        try await maker.proof(
            key, method: method, url: url(path), accessToken: accessToken, nonce: nonce, iat: iat ?? clock.now,
            jti: jti, tamper: tamper)
    }

    /// Registers a new user with the test password; returns the email address.
    func register() async throws -> String {
        let email = "dpop-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let answer = try await server.request(
            "POST", "/auth/register", json: #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#)
        #expect(answer.status == 201, "register: \(answer.text)")
        return email
    }

    /// `POST /auth/login` for `email` with `proof` in a `DPoP` header when given.
    func login(_ email: String, proof: String? = nil, headers: [String: String] = [:]) async throws -> TestResponse {
        var headers = headers
        if let proof { headers["DPoP"] = proof }
        return try await server.request(
            "POST", "/auth/login", headers: headers,
            json: #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#)
    }

    /// A new user logged in with a proof by `key` (bound); fails the test unless the answer is a DPoP login.
    func boundLogin(_ key: DPoPProofMaker.Key) async throws -> Tokens {
        let email = try await register()
        let answer = try await login(email, proof: try await proof(key, "POST", "/auth/login"))
        #expect(answer.status == 200, "bound login: \(answer.text)")
        let tokens = try Tokens(answer)
        #expect(tokens.type == "DPoP")
        return tokens
    }

    /// A new user logged in without a proof (unbound).
    func bearerLogin() async throws -> Tokens {
        let answer = try await login(try await register())
        #expect(answer.status == 200, "bearer login: \(answer.text)")
        return try Tokens(answer)
    }

    /// `POST /auth/refresh` of `refreshToken`, with `proof` when given.
    func refresh(_ refreshToken: String, proof: String? = nil) async throws -> TestResponse {
        try await server.request(
            "POST", "/auth/refresh", headers: proof.map { ["DPoP": $0] } ?? [:],
            json: #"{"refreshToken":"\#(refreshToken)"}"#)
    }

    /// `method path` with `Authorization: <scheme> <token>` and `proof` in a `DPoP` header when given.
    func call(
        _ method: String, _ path: String, token: String, scheme: String = "DPoP", proof: String? = nil,
        json: String? = nil
    ) async throws -> TestResponse {
        var headers = ["Authorization": "\(scheme) \(token)"]
        if let proof { headers["DPoP"] = proof }
        return try await server.request(method, path, headers: headers, json: json)
    }

    /// `method path` with a bound token and a fresh proof by `key` for it (carrying `nonce` when given).
    func boundCall(
        _ method: String, _ path: String, token: String, key: DPoPProofMaker.Key, nonce: String? = nil
    ) async throws -> TestResponse {
        try await call(
            method, path, token: token, proof: try await proof(key, method, path, accessToken: token, nonce: nonce))
    }

    /// `tokenvend_dpop_proofs_total{result, reason}` as the server exposes it on `/metrics` (0 when absent).
    func proofCount(_ result: String, _ reason: String) -> Double {
        Self.sample(
            server.server.metrics.exposition(), "tokenvend_dpop_proofs_total",
            labels: ["result=\"\(result)\"", "reason=\"\(reason)\""])
    }

    /// Every refused proof so far: `tokenvend_dpop_proofs_total{result="rejected"}` summed over the reasons.
    var rejectedProofs: Double {
        Self.sum(server.server.metrics.exposition(), "tokenvend_dpop_proofs_total", labels: ["result=\"rejected\""])
    }

    /// The value of the sample of `family` whose label set holds every one of `labels` (0 when absent).
    static func sample(_ exposition: [UInt8], _ family: String, labels: [String]) -> Double {
        samples(exposition, family, labels: labels).first ?? 0
    }

    /// The sum of the samples of `family` whose label sets hold every one of `labels`.
    static func sum(_ exposition: [UInt8], _ family: String, labels: [String]) -> Double {
        samples(exposition, family, labels: labels).reduce(0, +)
    }

    private static func samples(_ exposition: [UInt8], _ family: String, labels: [String]) -> [Double] {
        String(decoding: exposition, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.hasPrefix(family + "{"), let close = line.firstIndex(of: "}") else { return nil }
            let set = line[line.startIndex..<close]
            guard labels.allSatisfy({ set.contains($0) }) else { return nil }
            return Double(line[line.index(after: close)...].trimmed)
        }
    }

    /// The claims of a JWT (its middle part).
    static func claims(_ token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3, "not a compact JWT")
        var text = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The `cnf.jkt` claim of an access token, nil when it has none.
    static func boundThumbprint(_ accessToken: String) throws -> String? {
        (try claims(accessToken)["cnf"] as? [String: Any])?["jkt"] as? String
    }

    /// Checks `answer` is the refusal of a bad proof at a token endpoint: `400 invalid_dpop_proof`.
    static func expectTokenEndpointRefusal(
        _ answer: TestResponse, _ what: String, code: String = "invalid_dpop_proof",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 400, "\(what): \(answer.status) \(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorCode == code, "\(what): \(answer.text)", sourceLocation: sourceLocation)
    }

    /// Checks `answer` is a resource route's refusal: `401`, `error` = `code` in the body and in
    /// `WWW-Authenticate: DPoP …`.
    static func expectResourceRefusal(
        _ answer: TestResponse, _ what: String, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status == 401, "\(what): \(answer.status) \(answer.text)", sourceLocation: sourceLocation)
        #expect(answer.errorCode == code, "\(what): \(answer.text)", sourceLocation: sourceLocation)
        let challenge = answer.headers["www-authenticate"] ?? ""
        #expect(
            challenge.hasPrefix("DPoP ") && challenge.contains("error=\"\(code)\""),
            "\(what): WWW-Authenticate \(challenge)", sourceLocation: sourceLocation)
    }
}

/// The token pair of a login or refresh answer.
struct Tokens {
    let accessToken: String
    let refreshToken: String
    /// `tokenType`.
    let type: String?

    init(_ answer: TestResponse) throws {
        let object = try answer.object()
        accessToken = try #require(object["accessToken"] as? String, "no accessToken: \(answer.text)")
        refreshToken = try #require(object["refreshToken"] as? String, "no refreshToken: \(answer.text)")
        type = object["tokenType"] as? String
    }
}

/// Starts one ``DPoPHarness`` around a whole suite (`.sharedDPoPServer([...])`) and stops it afterwards; the
/// suite's tests reach it through ``DPoPHarness/shared()``.
struct SharedDPoPServer: SuiteTrait, TestScoping {
    let environment: [String: String]

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let harness = try await DPoPHarness(environment: environment)
        do {
            try await DPoPHarness.$current.withValue(harness) { try await function() }
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}

extension Trait where Self == SharedDPoPServer {
    /// One DPoP server (with `environment` over ``DPoPHarness/baseEnvironment``) and proof maker for the suite.
    static func sharedDPoPServer(_ environment: [String: String] = [:]) -> Self {
        SharedDPoPServer(environment: environment)
    }
}

extension Substring {
    fileprivate var trimmed: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
