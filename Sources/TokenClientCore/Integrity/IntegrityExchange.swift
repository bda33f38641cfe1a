public import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The `/integrity/*` endpoints, sent through the session's own transport without credentials (they are never
/// gated). Handed to ``AppIntegrityProvider/integrityToken(using:)``.
public struct IntegrityExchange: Sendable {
    /// The API root the endpoints are resolved against.
    public let baseURL: URL
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date

    /// Creates an exchange with the server at `baseURL` through `transport`; `now` dates the tokens' expiry.
    public init(baseURL: URL, transport: any HTTPTransport, now: @escaping @Sendable () -> Date = { Date() }) {
        self.baseURL = baseURL
        self.transport = transport
        self.now = now
    }

    /// `POST /integrity/challenge`: a single-use challenge for one attestation, assertion or Play Integrity request.
    /// - Throws: ``TokenClientError/integrity(_:)`` with ``AppIntegrityFailure/unavailable(status:body:)`` (404 when
    ///   the server has no platform configured, 429, 503), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    public func challenge() async throws -> String {
        let answer: IntegrityChallengeResponse = try await post("integrity/challenge", body: Never?.none)
        return answer.challenge
    }

    /// `POST /integrity/apple/attest` with a new key's attestation object.
    /// - Throws: ``TokenClientError/integrity(_:)`` with ``AppIntegrityFailure/refused(_:)`` for 401, and as
    ///   ``challenge()``.
    public func attest(keyID: String, attestation: [UInt8], challenge: String) async throws -> IntegrityCredential {
        try await token(
            "integrity/apple/attest",
            AppleAttestationRequest(
                keyId: keyID, attestation: Data(attestation).base64EncodedString(), challenge: challenge))
    }

    /// `POST /integrity/apple/assert` with an assertion by an attested key.
    /// - Throws: as ``attest(keyID:attestation:challenge:)``; ``AppIntegrityFailure/refused(_:)`` means the key is
    ///   no longer trusted (unknown to the server, or a replayed counter).
    public func assert(keyID: String, assertion: [UInt8], challenge: String) async throws -> IntegrityCredential {
        try await token(
            "integrity/apple/assert",
            AppleAssertionRequest(keyId: keyID, assertion: Data(assertion).base64EncodedString(), challenge: challenge))
    }

    /// `POST /integrity/android` with a classic Play Integrity token requested with the challenge as its nonce.
    /// - Throws: as ``attest(keyID:attestation:challenge:)``.
    public func android(integrityToken: String, challenge: String) async throws -> IntegrityCredential {
        try await token(
            "integrity/android", AndroidIntegrityRequest(integrityToken: integrityToken, challenge: challenge))
    }

    private func token(_ path: String, _ body: some Encodable) async throws -> IntegrityCredential {
        let answer: IntegrityTokenResponse = try await post(path, body: body)
        guard !answer.integrityToken.isEmpty, answer.expiresIn > 0 else { throw TokenClientError.invalidResponse }
        return IntegrityCredential(
            value: answer.integrityToken, expiresAt: now().addingTimeInterval(TimeInterval(answer.expiresIn)))
    }

    private func post<Answer: Decodable>(_ path: String, body: (some Encodable)?) async throws -> Answer {
        let request = WireCoding.request("POST", baseURL.appending(path: path), body: body)
        let (data, response) = try await WireCoding.exchange(transport, request)
        guard (200..<300).contains(response.statusCode) else {
            let body = WireCoding.errorBody(data)
            if response.statusCode == 401 { throw TokenClientError.integrity(.refused(body)) }
            throw TokenClientError.integrity(.unavailable(status: response.statusCode, body: body))
        }
        return try WireCoding.decodeSuccess(Answer.self, data: data, response: response)
    }
}
