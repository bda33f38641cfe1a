public import AuthAPI
public import Foundation
public import TokenClientCore

/// tokenvend's integrity side in front of another fake (a ``FakeAuthServer``): `/integrity/*` with numbered
/// challenges and tokens, and a `require` gate on every other path, answering 401 `integrity_required` /
/// `integrity_invalid` with `WWW-Authenticate: AppIntegrity realm="tokenvend"` like the server.
///
/// Attestations and assertions are what ``FakeAppAttestService`` makes: `attest|<keyId>|<hash hex>` and
/// `assert|<keyId>|<hash hex>`; the recorded hashes let tests check the clientDataHash.
public final class FakeIntegrityServer: HTTPTransport {
    public struct State: Sendable {
        /// Every request: its path and the `X-App-Integrity` it carried.
        public var requests: [(path: String, integrity: String?)] = []
        public var challengesIssued = 0
        public var pendingChallenges: Set<String> = []
        /// Attested key ids and their last counter (assertions counted).
        public var attestedKeys: [String: Int] = [:]
        /// `clientDataHash` (hex) of every attestation and assertion, by challenge.
        public var clientDataHashes: [String: String] = [:]
        public var tokensIssued = 0
        public var validTokens: Set<String> = []
        /// `expiresIn` of the tokens issued.
        public var tokenLifetime = 3600
        /// `debug:<secret>` values accepted like tokens.
        public var debugValues: Set<String> = []
        /// When false, requests pass without a value (the route is `off`).
        public var require = true
        /// The next this many gated requests are refused with `integrity_invalid` whatever they carry.
        public var refuseNext = 0
        /// The code of those refusals.
        public var refuseWith: ErrorCode = .integrityInvalid
        /// `POST /integrity/challenge` answers this status (`unavailable`) instead, when set.
        public var challengeStatus: Int?
    }

    public let inner: any HTTPTransport
    public let clock: TestClock
    package let state = Locked(State())
    private let challengeGate = Locked<Gate?>(nil)

    /// Creates the fake in front of `inner`, dating tokens with `clock`.
    public init(inner: any HTTPTransport, clock: TestClock) {
        self.inner = inner
        self.clock = clock
    }

    /// Changes the fake's knobs.
    public func configure(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    /// The state now.
    public var snapshot: State { state.withLock { $0 } }

    /// Requests to `path`, in order.
    public func count(_ path: String) -> Int { snapshot.requests.filter { $0.path == path }.count }

    /// The `X-App-Integrity` values sent to `path`, in order.
    public func integrityValues(_ path: String) -> [String?] {
        snapshot.requests.filter { $0.path == path }.map(\.integrity)
    }

    /// Makes every token issued so far invalid (as a server with new keys would).
    public func revokeTokens() { state.withLock { $0.validTokens.removeAll() } }

    /// Forgets every attested key (as a server whose store was reset would): assertions are refused.
    public func forgetKeys() { state.withLock { $0.attestedKeys.removeAll() } }

    /// `POST /integrity/challenge` waits at the returned gate until the test opens it.
    public func gateChallenges() -> Gate {
        let gate = Gate()
        challengeGate.withLock { $0 = gate }
        return gate
    }

    public func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let path = request.url.path
        let value = request.value(forHTTPHeaderField: HeaderName.appIntegrity)
        state.withLock { $0.requests.append((path, value)) }
        if path.hasPrefix("/integrity/") { return try await integrity(path, request) }
        let verdict: ErrorCode? = state.withLock { state in
            guard state.require else { return nil }
            guard let value else { return .integrityRequired }
            if state.refuseNext > 0 {
                state.refuseNext -= 1
                return state.refuseWith
            }
            return state.validTokens.contains(value) || state.debugValues.contains(value) ? nil : .integrityInvalid
        }
        guard let verdict else { return try await inner.send(request) }
        let (status, body) = FakeAuthServer.error(401, verdict)
        return (
            body,
            TransportResponse(
                statusCode: status, headerFields: ["WWW-Authenticate": #"AppIntegrity realm="tokenvend""#],
                url: request.url)
        )
    }

    private func integrity(_ path: String, _ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let (status, body) = try await integrityAnswer(path, request)
        return (body, TransportResponse(statusCode: status, headerFields: [:], url: request.url))
    }

    private func integrityAnswer(_ path: String, _ request: TransportRequest) async throws -> (Int, Data) {
        switch path {
        case "/integrity/challenge":
            if let gate = challengeGate.withLock({ $0 }) { try await gate.enter() }
            return state.withLock { state in
                if let status = state.challengeStatus { return FakeAuthServer.error(status, .unavailable) }
                state.challengesIssued += 1
                let challenge = "challenge-\(state.challengesIssued)"
                state.pendingChallenges.insert(challenge)
                return (200, FakeAuthServer.json(IntegrityChallengeResponse(challenge: challenge, expiresIn: 300)))
            }
        case "/integrity/apple/attest":
            guard let body = request.body,
                let attest = try? JSONDecoder().decode(AppleAttestationRequest.self, from: body)
            else { return FakeAuthServer.error(400, .invalidRequest) }
            return verify(attest.attestation, kind: "attest", keyID: attest.keyId, challenge: attest.challenge)
        case "/integrity/apple/assert":
            guard let body = request.body,
                let assert = try? JSONDecoder().decode(AppleAssertionRequest.self, from: body)
            else { return FakeAuthServer.error(400, .invalidRequest) }
            return verify(assert.assertion, kind: "assert", keyID: assert.keyId, challenge: assert.challenge)
        default:
            return FakeAuthServer.error(404, .notFound)
        }
    }

    /// Checks `encoded` is `<kind>|<keyID>|<hash>` for a pending challenge (consumed either way) and, for an
    /// assertion, a known key; issues a token.
    private func verify(_ encoded: String, kind: String, keyID: String, challenge: String) -> (Int, Data) {
        state.withLock { state in
            guard state.pendingChallenges.remove(challenge) != nil,
                let decoded = Data(base64Encoded: encoded).flatMap({ String(data: $0, encoding: .utf8) })
            else { return FakeAuthServer.error(401, .integrityInvalid) }
            let parts = decoded.split(separator: "|").map(String.init)
            guard parts.count == 3, parts[0] == kind, parts[1] == keyID else {
                return FakeAuthServer.error(401, .integrityInvalid)
            }
            if kind == "attest" {
                guard state.attestedKeys[keyID] == nil else { return FakeAuthServer.error(401, .integrityInvalid) }
                state.attestedKeys[keyID] = 0
            } else {
                guard let counter = state.attestedKeys[keyID] else {
                    return FakeAuthServer.error(401, .integrityInvalid)
                }
                state.attestedKeys[keyID] = counter + 1
            }
            state.clientDataHashes[challenge] = parts[2]
            state.tokensIssued += 1
            let token = "integrity-\(state.tokensIssued)"
            state.validTokens.insert(token)
            return (
                200,
                FakeAuthServer.json(IntegrityTokenResponse(integrityToken: token, expiresIn: state.tokenLifetime))
            )
        }
    }
}
