import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import Logging
import Store
import WebAuthn

/// The passkey endpoints of issue 36 (`/auth/passkeys/…`) and the association files: a WebAuthn Level 3 relying
/// party for native apps and the web.
///
/// The checks are `RelyingPartyVerifier`'s (pure); this type keeps the state around them: the single-use
/// challenges (`passkey_challenges`, shared by every instance on PostgreSQL), the credentials and the accounts' user
/// handles, the sessions a ceremony opens, the per-address limit and the metric. Every failed check answers the one
/// `401 invalid_credential` body; the reason goes to the log and `tokenvend_passkey_ceremonies_total`.
struct PasskeyEndpoints: Sendable {
    /// The account and session machinery (address limit, users, sessions, DPoP binding, the login body).
    let auth: AuthService
    let store: any PasskeyStoring
    /// `passkeys.*`.
    let configuration: PasskeyConfiguration
    /// nil while passkeys are off (`passkeys.rpId` unset): every endpoint answers 404.
    let verifier: RelyingPartyVerifier?
    /// Whether email-code sign-in is a way into an account with an email (`email.signInCodes` with a transport):
    /// the last-sign-in-method rule of `DELETE /auth/passkeys/{id}` counts it.
    let emailSignIn: Bool
    let metrics: PasskeyMetrics
    /// `/.well-known/apple-app-site-association`, built once; nil when it answers 404.
    let appleAssociation: [UInt8]?
    /// `/.well-known/assetlinks.json`, built once; nil when it answers 404.
    let androidAssociation: [UInt8]?

    /// The bytes of a challenge (WebAuthn asks for at least 16).
    static let challengeBytes = 32
    /// The bytes of a new user handle (WebAuthn allows at most 64).
    static let userHandleBytes = 32
    /// The longest passkey name, in characters.
    static let maximumNameLength = 64
    /// The name of a passkey registered without one.
    static let defaultName = "Passkey"

    /// Endpoints for `configuration` (passkeys off when its RP id is unset).
    /// - Throws: ``ConfigurationError`` for a relying party the verifier refuses (the loader has checked it).
    init(
        auth: AuthService, store: any PasskeyStoring, configuration: PasskeyConfiguration, emailSignIn: Bool,
        metrics: PasskeyMetrics
    ) throws(ConfigurationError) {
        self.auth = auth
        self.store = store
        self.configuration = configuration
        self.emailSignIn = emailSignIn
        self.metrics = metrics
        if configuration.isEnabled {
            do throws(PasskeyConfigurationError) {
                verifier = try RelyingPartyVerifier(configuration: configuration)
            } catch {
                throw .invalidValue(key: error.path, source: "", reason: error.reason)
            }
            appleAssociation =
                configuration.appleAppIDs.isEmpty
                ? nil : PasskeyAssociations.appleAppSiteAssociation(appIDs: configuration.appleAppIDs)
            androidAssociation =
                configuration.androidApps.isEmpty
                ? nil : PasskeyAssociations.assetLinks(apps: configuration.androidApps)
        } else {
            verifier = nil
            appleAssociation = nil
            androidAssociation = nil
        }
    }

    /// The verifier, or 404 while passkeys are off.
    func enabledVerifier() throws(ServiceError) -> RelyingPartyVerifier {
        guard let verifier else { throw .notFound }
        return verifier
    }

    /// Counts every ceremony call (options and verification) against the per-client-address limit, in its own
    /// bucket; never against the per-account login lockout.
    func limitAddress(_ request: HTTPRequest) async throws(ServiceError) {
        try await auth.limitAddress(request, bucket: "passkey:")
    }

    // MARK: - Challenges

    /// Makes and stores a challenge for `ceremony`.
    /// - Returns: the raw challenge bytes for the options.
    /// - Throws: 503 at `passkeys.maxPendingChallenges`, or when the store cannot take it.
    func issueChallenge(
        _ ceremony: PasskeyChallenge.Ceremony, userID: String? = nil, userHandle: String? = nil, email: String? = nil,
        _ context: RequestContext
    ) async throws -> [UInt8] {
        let challenge = try SecureRandom.bytes(count: Self.challengeBytes)
        let issued = auth.now()
        let record = PasskeyChallenge(
            hash: try Self.hash(challenge), ceremony: ceremony, userID: userID, userHandle: userHandle, email: email,
            expiresAt: issued.addingTimeInterval(TimeInterval(configuration.timeoutSeconds)))
        let stored: Bool
        do {
            stored = try await store.issueChallenge(
                record, maxPending: configuration.maxPendingChallenges, now: issued)
        } catch {
            throw AuthService.mapStore(error)
        }
        guard stored else {
            context.logger.warning(
                "passkey challenge refused: passkeys.maxPendingChallenges are pending",
                metadata: ["max_pending": "\(configuration.maxPendingChallenges)"])
            throw ServiceError.unavailable("Too many passkey ceremonies are pending; retry later.", retryAfter: 30)
        }
        return challenge
    }

    /// Consumes the challenge a ceremony's client data names: it must be stored, unexpired and unused (on any
    /// instance), and issued for `ceremony`.
    /// - Throws: a failed `.challenge` check (401) otherwise.
    func consumeChallenge(
        _ clientData: CollectedClientData, for ceremony: PasskeyChallenge.Ceremony
    ) async throws -> PasskeyChallenge {
        let found: PasskeyChallenge?
        let hash = try Self.hash(clientData.challenge)
        do {
            found = try await store.consumeChallenge(hash: hash, now: auth.now())
        } catch {
            throw AuthService.mapStore(error)
        }
        guard let found, found.ceremony == ceremony else { throw WebAuthnError.failed(.challenge) }
        return found
    }

    static func hash(_ challenge: [UInt8]) throws -> String {
        Hex.encode(try SHA256.hash(challenge))
    }

    // MARK: - Outcomes

    /// Runs one ceremony (from reading its body to storing its result) and counts its outcome: a `WebAuthnError`
    /// becomes 400 (`malformed`) or the one 401 body (a failed check), a ``PasskeyRefusal`` the 401 body with its
    /// reason, a 400 of the body `malformed`; the reason is logged. Other errors (429, 503, 409) pass uncounted.
    func ceremony<Result>(
        _ ceremony: PasskeyChallenge.Ceremony, _ context: RequestContext, _ body: () async throws -> Result
    ) async throws -> Result {
        let reason: PasskeyMetrics.Reason
        let answer: ServiceError
        do {
            let result = try await body()
            metrics.succeeded(ceremony)
            return result
        } catch let error as WebAuthnError {
            switch error {
            case .malformed(let detail):
                reason = .malformed
                answer = .invalidRequest("The passkey credential is malformed: \(detail).")
            case .failed(let failure):
                reason = .check(failure)
                answer = .invalidPasskey
            }
        } catch let refusal as PasskeyRefusal {
            reason = refusal.reason
            answer = .invalidPasskey
        } catch let error as ServiceError {
            // A body that is not JSON, lacks `credential` or has a bad `name`: a malformed ceremony too.
            guard case .invalidRequest = error else { throw error }
            reason = .malformed
            answer = error
        }
        metrics.failed(ceremony, reason)
        context.accessLogMetadata["passkey.failure"] = .string(reason.label)
        context.logger.info(
            "passkey ceremony refused",
            metadata: ["ceremony": "\(ceremony.rawValue)", "reason": "\(reason.label)"])
        throw answer
    }

    // MARK: - Wire

    /// The wire form of a stored passkey.
    static func info(_ passkey: Passkey) -> PasskeyInfo {
        PasskeyInfo(
            id: passkey.credentialID, name: passkey.name, createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt,
            backedUp: passkey.backedUp, deviceType: passkey.backupEligible ? .multiDevice : .singleDevice)
    }

    /// A passkey name from a request: trimmed, 1–64 characters, no control characters; nil gives the default.
    static func name(_ raw: String?) throws(ServiceError) -> String {
        guard let raw else { return defaultName }
        let name = raw.trimmingWhitespace
        guard !name.isEmpty, name.count <= maximumNameLength,
            !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidRequest("The passkey name must be 1 to \(maximumNameLength) characters, without controls.")
        }
        return name
    }

    /// A 200 options answer: the ceremony's JSON, never cached.
    static func options(_ bytes: [UInt8]) -> HTTPResponse {
        .json(bytes: bytes, headers: .noStore)
    }
}

/// A ceremony refused by the service (not by the pure checks): the reason for the metric and the log; answered
/// with the one 401 body.
struct PasskeyRefusal: Error {
    let reason: PasskeyMetrics.Reason
}
