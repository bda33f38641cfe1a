import AppIntegrity
import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import IdentityProviders
import Logging
import Store

/// `POST /integrity/challenge`, `/integrity/apple/attest`, `/integrity/apple/assert` and `/integrity/android`
/// (API.md "App integrity"): the app proves itself once with Apple or Google's signed statement, and gets
/// tokenvend's integrity token for `X-App-Integrity`. No round trip to Apple or Google.
///
/// Every check that fails answers one body, `401 integrity_invalid`; the reason goes to the log and
/// `tokenvend_integrity_checks_total`. Input that does not parse is `400 invalid_request`.
struct IntegrityEndpoints: Sendable {
    /// Seconds a challenge is accepted.
    static let challengeLifetimeSeconds = 300
    /// The largest decoded attestation object accepted (Apple's are about 5 KiB).
    static let maxAttestationBytes = 16 * 1024
    /// The largest decoded assertion object accepted (Apple's are about 150 bytes).
    static let maxAssertionBytes = 4 * 1024
    /// The longest Play Integrity token accepted.
    static let maxPlayTokenBytes = 16 * 1024
    /// The longest challenge text looked up (issued ones are 43 characters).
    static let maxChallengeBytes = 128

    let store: any IntegrityStoring
    let apple: AppAttestVerifier?
    let android: PlayIntegrityVerifier?
    let tokens: IntegrityTokens
    /// Binds a new integrity token to the DPoP key of a valid proof sent with the exchange (`cnf.jkt`).
    let dpop: DPoPGate
    let maxPendingChallenges: Int
    let metrics: IntegrityMetrics
    /// Counts the request toward the per-address limit (`AuthService.limitAddress`), throwing 429 beyond it.
    let limitAddress: @Sendable (HTTPRequest) async throws -> Void
    let now: @Sendable () -> Date

    /// Whether any platform is configured (else every endpoint answers 404).
    var isEnabled: Bool { apple != nil || android != nil }

    /// `POST /integrity/challenge` (no body, or `{}`) → `200 {"challenge", "expiresIn": 300}`.
    func challenge(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard isEnabled else { throw ServiceError.notFound }
        try await limitAddress(request)
        _ = try JSONRequestBody(request, allowed: [], optional: true)
        let challenge = try OAuthRandom.token()
        let hash = try OAuthRandom.sha256Hex(challenge)
        let issued = now()
        let stored: Bool
        do {
            stored = try await store.issueChallenge(
                hash: hash,
                expiresAt: issued.addingTimeInterval(TimeInterval(Self.challengeLifetimeSeconds)),
                maxPending: maxPendingChallenges, now: issued)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard stored else {
            context.logger.warning(
                "integrity challenge refused: integrity.maxPendingChallenges are pending",
                metadata: ["max_pending": "\(maxPendingChallenges)"])
            throw ServiceError.unavailable("Too many integrity checks are pending; retry later.", retryAfter: 30)
        }
        return try .json(
            IntegrityChallengeResponse(challenge: challenge, expiresIn: Self.challengeLifetimeSeconds),
            headers: .noStore)
    }

    /// `POST /integrity/apple/attest` `{"keyId", "attestation", "challenge"}` → `200 {"integrityToken", "expiresIn"}`.
    func attest(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard let apple else { throw ServiceError.notFound }
        try await limitAddress(request)
        let body = try AppleAttestationRequest(body: request)
        let binding = try await dpop.bindingForIntegrityToken(request, now: now())
        guard StandardBase64.decode(body.keyId)?.count == 32 else {
            throw ServiceError.invalidRequest("keyId must be the standard base64 of 32 bytes.")
        }
        let attestation = try Self.decode(body.attestation, name: "attestation", max: Self.maxAttestationBytes)
        let clientDataHash = try await consume(body.challenge, route: .attest, context)
        let verified: VerifiedAttestation
        do {
            verified = try apple.verifyAttestation(
                keyID: body.keyId, attestation: attestation, clientDataHash: clientDataHash, now: now())
        } catch {
            throw refuse(error, route: .attest, context)
        }
        let key = AttestedKey(
            keyID: body.keyId, publicKey: verified.publicKey, counter: verified.counter, appID: verified.appID,
            environment: verified.isDevelopment ? .development : .production, createdAt: now())
        let inserted: Bool
        do {
            inserted = try await store.insertAttestedKey(key)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard inserted else {
            throw refuse(.failed(.keyExists, detail: "key attested before"), route: .attest, context)
        }
        context.logger.info(
            "app attest key attested",
            metadata: ["app_id": "\(verified.appID)", "environment": "\(key.environment.rawValue)"])
        return try answer(
            .apple, subject: body.keyId, appID: verified.appID, route: .attest, issued: .appleAttest,
            binding: binding)
    }

    /// `POST /integrity/apple/assert` `{"keyId", "assertion", "challenge"}` → `200 {"integrityToken", "expiresIn"}`.
    func assert(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard let apple else { throw ServiceError.notFound }
        try await limitAddress(request)
        let body = try AppleAssertionRequest(body: request)
        let binding = try await dpop.bindingForIntegrityToken(request, now: now())
        guard body.keyId.utf8.count <= 64 else { throw ServiceError.invalidRequest("keyId is too long.") }
        let assertion = try Self.decode(body.assertion, name: "assertion", max: Self.maxAssertionBytes)
        let clientDataHash = try await consume(body.challenge, route: .assert, context)
        let stored: AttestedKey?
        do {
            stored = try await store.attestedKey(id: body.keyId)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard let key = stored else {
            throw refuse(.failed(.unknownKey, detail: "no such attested key"), route: .assert, context)
        }
        let counter: UInt32
        do {
            counter = try apple.verifyAssertion(
                assertion, clientDataHash: clientDataHash, publicKey: key.publicKey, appID: key.appID,
                storedCounter: key.counter)
        } catch {
            throw refuse(error, route: .assert, context)
        }
        let advanced: Bool
        do {
            advanced = try await store.advanceCounter(keyID: key.keyID, to: counter, now: now())
        } catch {
            throw AuthService.mapStore(error)
        }
        guard advanced else {
            // Another assertion with this counter or a later one won (a replay, or one reordered, on any instance).
            throw refuse(
                .failed(.counter, detail: "counter \(counter) not above the stored one"), route: .assert, context)
        }
        return try answer(
            .apple, subject: key.keyID, appID: key.appID, route: .assert, issued: .appleAssert,
            binding: binding)
    }

    /// `POST /integrity/android` `{"integrityToken", "challenge"}` → `200 {"integrityToken", "expiresIn"}`.
    func android(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        guard let android else { throw ServiceError.notFound }
        try await limitAddress(request)
        let body = try AndroidIntegrityRequest(body: request)
        let binding = try await dpop.bindingForIntegrityToken(request, now: now())
        guard body.integrityToken.utf8.count <= Self.maxPlayTokenBytes else {
            throw ServiceError.invalidRequest("integrityToken is longer than 16 KiB.")
        }
        _ = try await consume(body.challenge, route: .android, context)
        let verdict: PlayIntegrityVerdict
        do {
            verdict = try android.verify(body.integrityToken, challenge: body.challenge, now: now())
        } catch {
            throw refuse(error, route: .android, context)
        }
        return try answer(
            .android, subject: verdict.packageName, appID: verdict.packageName, route: .android, issued: .android,
            binding: binding)
    }

    // MARK: - Shared steps

    /// Uses the challenge up (before any verification, so a failed one cannot be retried with it) and returns
    /// `SHA256(challenge's UTF-8 bytes)`, the `clientDataHash` App Attest signs.
    private func consume(
        _ challenge: String, route: IntegrityMetrics.Route, _ context: RequestContext
    ) async throws -> [UInt8] {
        guard !challenge.isEmpty, challenge.utf8.count <= Self.maxChallengeBytes else {
            throw ServiceError.invalidRequest("challenge must be the text POST /integrity/challenge answered.")
        }
        let hash = try OAuthRandom.sha256Hex(challenge)
        let consumed: Bool
        do {
            consumed = try await store.consumeChallenge(hash: hash, now: now())
        } catch {
            throw AuthService.mapStore(error)
        }
        guard consumed else {
            throw refuse(.failed(.challenge, detail: "challenge not issued, used or expired"), route: route, context)
        }
        return try SHA256.hash(Array(challenge.utf8))
    }

    /// Counts and logs a failed exchange; the error to throw (400 for malformed input, else 401).
    private func refuse(_ error: IntegrityError, route: IntegrityMetrics.Route, _ context: RequestContext)
        -> ServiceError
    {
        metrics.recordFailure(error, route: route, context)
        if case .malformed(let detail) = error { return .invalidRequest("The \(route.noun) is malformed: \(detail).") }
        return .integrityInvalid
    }

    private func answer(
        _ platform: IntegrityTokens.Platform, subject: String, appID: String, route: IntegrityMetrics.Route,
        issued: IntegrityMetrics.Issued, binding: String?
    ) throws -> HTTPResponse {
        let token = try tokens.issue(
            platform: platform, subject: subject, appID: appID, dpopThumbprint: binding, now: now())
        metrics.passed(route)
        metrics.countIssued(issued)
        return try .json(
            IntegrityTokenResponse(integrityToken: token.token, expiresIn: token.expiresIn), headers: .noStore)
    }

    /// Standard base64 of at most `max` bytes, else 400.
    private static func decode(_ text: String, name: String, max: Int) throws(ServiceError) -> [UInt8] {
        guard text.utf8.count <= (max / 3 + 1) * 4 + 8, let bytes = StandardBase64.decodeLenient(text), !bytes.isEmpty,
            bytes.count <= max
        else {
            throw .invalidRequest("\(name) must be standard base64 of at most \(max / 1024) KiB.")
        }
        return bytes
    }
}

extension IntegrityMetrics.Route {
    /// What the exchange at this route carries, for a 400's message.
    fileprivate var noun: String {
        switch self {
        case .attest: "attestation"
        case .assert: "assertion"
        case .android: "integrity token"
        default: "integrity token"
        }
    }
}
