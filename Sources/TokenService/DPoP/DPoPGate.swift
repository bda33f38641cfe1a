import AuthAPI
import DPoP
import FoundationEssentials
import HTTPServer
import JWT
import Store

/// The service side of DPoP (RFC 9449): which requests need a proof, which key a new session is bound to, the
/// nonce, and the replay check on every instance. The proof's own checks are `DPoPProofVerifier`'s.
///
/// At the token endpoints a failure is `400 invalid_dpop_proof` (or `use_dpop_nonce`); at the other routes it is
/// `401` with a `DPoP` challenge. Every decision is counted in `tokenvend_dpop_proofs_total`.
struct DPoPGate: Sendable {
    /// Where accepted proofs are remembered until their window ends.
    enum ReplayGuard: Sendable {
        /// One instance (SQLite): in process memory, decided on the event loop.
        case memory(DPoPReplayCache)
        /// Several instances (PostgreSQL): in the shared store, one statement per proof.
        case store(any DPoPProofStoring)
    }

    let mode: TokenServiceConfiguration.DPoP.Mode
    let verifier: DPoPProofVerifier
    /// Set when `dpop.requireNonce` is on.
    let nonces: DPoPNonces?
    let replay: ReplayGuard
    /// `server.publicURL` (the configuration check drops its trailing `/`), or nil (then `http://<Host>` stands in).
    let publicURL: String?
    let metrics: DPoPMetrics

    /// - Throws: ``ConfigurationError`` when `dpop.requireNonce` is on without a nonce secret (`ConfigurationLoader`
    ///   always fills one in).
    init(
        configuration: TokenServiceConfiguration, backend: any StoreBackend, metrics: DPoPMetrics
    ) throws(ConfigurationError) {
        let settings = configuration.dpop
        mode = settings.mode
        verifier = DPoPProofVerifier(
            algorithms: settings.algorithms.compactMap { JWTAlgorithm(name: $0) },
            maxAgeSeconds: Int64(settings.maxAgeSeconds))
        if settings.requireNonce {
            guard let secret = settings.nonceSecret else {
                throw .invalidValue(
                    key: "dpop.nonceSecret", source: "configuration",
                    reason: "must be set when dpop.requireNonce is true (use ConfigurationLoader.load)")
            }
            nonces = DPoPNonces(secret: Array(secret.value.utf8))
        } else {
            nonces = nil
        }
        if let shared = backend.dpopProofs {
            replay = .store(shared)
        } else {
            replay = .memory(DPoPReplayCache(capacity: settings.maxTrackedProofs))
        }
        publicURL = configuration.publicURL
        self.metrics = metrics
    }

    /// Whether recording a proof waits for the store (then an inline handler must go async before verifying).
    var recordsInStore: Bool {
        if case .store = replay { return true }
        return false
    }

    // MARK: - Token endpoints

    /// The thumbprint to bind a new session to: that of a valid proof in bearer mode; nil without a proof (in
    /// `optional` mode) and in cookie mode, whose sessions stay unbound.
    /// - Throws: `invalidDPoPProof` (400) for a bad proof, or none in `required` mode; `useDPoPNonce` (400);
    ///   `unavailable` when the replay check cannot be made.
    func bindingForNewSession(
        _ request: HTTPRequest, strategy: AuthStrategy, now: Date
    ) async throws(ServiceError) -> String? {
        guard strategy == .bearer else { return nil }
        guard let header = try proofHeader(request, atTokenEndpoint: true) else {
            guard mode == .required else { return nil }
            metrics.rejected(.missing)
            throw .invalidDPoPProof(atTokenEndpoint: true)
        }
        return try await bind(header, request, now: now)
    }

    /// The key a new integrity token is bound to (`POST /integrity/*`): that of a valid proof, recorded; nil without
    /// one, whatever `dpop.mode` says (the token is bound when the app can, not required to be).
    /// - Throws: as ``bindingForNewSession(_:strategy:now:)`` for a bad proof.
    func bindingForIntegrityToken(_ request: HTTPRequest, now: Date) async throws(ServiceError) -> String? {
        guard let header = try proofHeader(request, atTokenEndpoint: true) else { return nil }
        return try await bind(header, request, now: now)
    }

    /// The thumbprint of a token endpoint's proof `header`, checked and recorded: what a new session or integrity
    /// token is bound to.
    private func bind(_ header: String, _ request: HTTPRequest, now: Date) async throws(ServiceError) -> String {
        let proof = try verify(header, request, accessToken: nil, atTokenEndpoint: true, now: now)
        try await record(proof, atTokenEndpoint: true, now: now)
        return proof.thumbprint
    }

    /// The refresh of a session bound to `boundTo` (nil: unbound) needs a proof by that key: none is
    /// `400 invalid_dpop_proof`, another key `401 invalid_grant` (the session is not revoked: a thief cannot sign
    /// the owner out). A proof for an unbound session is ignored; in `required` mode a bearer refresh of an
    /// unbound session still needs one.
    func checkRefresh(
        _ request: HTTPRequest, boundTo: String?, strategy: AuthStrategy, now: Date
    ) async throws(ServiceError) {
        guard let boundTo else {
            if mode == .required, strategy == .bearer, try proofHeader(request, atTokenEndpoint: true) == nil {
                metrics.rejected(.missing)
                throw .invalidDPoPProof(atTokenEndpoint: true)
            }
            return
        }
        try await checkPossession(request, boundTo: boundTo, now: now)
    }

    /// A request that presents the refresh token of a session bound to `boundTo` (a refresh, a logout by refresh
    /// token) needs a proof by that key: none is `400 invalid_dpop_proof`, another key `401 invalid_grant`.
    func checkPossession(_ request: HTTPRequest, boundTo: String, now: Date) async throws(ServiceError) {
        guard let header = try proofHeader(request, atTokenEndpoint: true) else {
            metrics.rejected(.missing)
            throw .invalidDPoPProof(atTokenEndpoint: true)
        }
        let proof = try verify(header, request, accessToken: nil, atTokenEndpoint: true, now: now)
        guard proof.thumbprint == boundTo else {
            metrics.rejected(.keyMismatch)
            throw .invalidGrant
        }
        try await record(proof, atTokenEndpoint: true, now: now)
    }

    /// The `DPoP-Nonce` a successful token-endpoint answer carries while nonces are required, else nil.
    func currentNonce(now: Date) -> String? {
        nonces?.current(now: now)
    }

    // MARK: - Routes that take an access token

    /// Checks a request's access-token scheme and proof against the token's binding `boundTo` (its `cnf.jkt`).
    /// - Returns: the proof to record before the request is served (nil for an unbound token).
    /// - Throws: `dpopSchemeMismatch` for a bound token without the `DPoP` scheme or an unbound one with it;
    ///   `invalidDPoPProof` (401) for a missing or bad proof or another key; `useDPoPNonce` (401).
    func checkResource(
        _ request: HTTPRequest, token: String, scheme: AccessCredential.Scheme, boundTo: String?, now: Date
    ) throws(ServiceError) -> DPoPProof? {
        guard let boundTo else {
            guard scheme != .dpop else {
                metrics.rejected(.scheme)
                throw .dpopSchemeMismatch
            }
            return nil
        }
        guard scheme == .dpop else {
            metrics.rejected(.scheme)
            throw .dpopSchemeMismatch
        }
        guard let header = try proofHeader(request, atTokenEndpoint: false) else {
            metrics.rejected(.missing)
            throw .invalidDPoPProof(atTokenEndpoint: false)
        }
        let proof = try verify(header, request, accessToken: token, atTokenEndpoint: false, now: now)
        guard proof.thumbprint == boundTo else {
            metrics.rejected(.keyMismatch)
            throw .invalidDPoPProof(atTokenEndpoint: false)
        }
        return proof
    }

    /// Records `proof` when that can be decided without waiting (memory): true when done; false when the store
    /// must be asked (call ``record(_:atTokenEndpoint:now:)`` from a task).
    func recordImmediately(_ proof: DPoPProof, atTokenEndpoint: Bool, now: Date) throws(ServiceError) -> Bool {
        guard case .memory(let cache) = replay else { return false }
        try decide(
            cache.insert(proof.replayKey, expiresAt: verifier.acceptedUntil(issuedAt: proof.issuedAt), now: now),
            atTokenEndpoint: atTokenEndpoint)
        return true
    }

    /// Records `proof` once on every instance sharing the store; a replay is refused.
    func record(_ proof: DPoPProof, atTokenEndpoint: Bool, now: Date) async throws(ServiceError) {
        let expiresAt = verifier.acceptedUntil(issuedAt: proof.issuedAt)
        switch replay {
        case .memory(let cache):
            try decide(cache.insert(proof.replayKey, expiresAt: expiresAt, now: now), atTokenEndpoint: atTokenEndpoint)
        case .store(let store):
            let fresh: Bool
            do {
                fresh = try await store.recordProof(hash: proof.replayKey, expiresAt: expiresAt, now: now)
            } catch {
                throw .unavailable(
                    "The DPoP replay check is unavailable; retry later.",
                    retryAfter: StoreFailure.retryAfter(error, default: 1))
            }
            try decide(fresh ? .fresh : .replayed, atTokenEndpoint: atTokenEndpoint)
        }
    }

    // MARK: - App integrity

    /// The thumbprint of the request's proof when it verifies (signature, `htm`, `htu`, `iat`, `ath` of a `DPoP`
    /// access token, nonce), not recorded: what an integrity token's `cnf.jkt` is compared with, and what the
    /// exchange endpoints bind a new integrity token to. Nil without a `DPoP` header.
    /// - Throws: as ``checkResource(_:token:scheme:boundTo:now:)`` does for a bad proof (`atTokenEndpoint` decides
    ///   400 or 401).
    func verifiedThumbprint(
        _ request: HTTPRequest, atTokenEndpoint: Bool, now: Date
    ) throws(ServiceError) -> String? {
        guard let header = try proofHeader(request, atTokenEndpoint: atTokenEndpoint) else { return nil }
        var token: String? = nil
        if let credential = try? Authenticator.credential(in: request), credential.scheme == .dpop {
            token = credential.token
        }
        return try verify(header, request, accessToken: token, atTokenEndpoint: atTokenEndpoint, now: now).thumbprint
    }

    // MARK: - Shared steps

    /// The `DPoP` header's value, or nil when there is none; two fields are refused.
    private func proofHeader(_ request: HTTPRequest, atTokenEndpoint: Bool) throws(ServiceError) -> String? {
        guard let value = request.headers[HeaderName.dpop] else { return nil }
        guard !request.headers.isRepeated(HeaderName.dpop) else {
            metrics.rejected(.multiple)
            throw .invalidDPoPProof(atTokenEndpoint: atTokenEndpoint)
        }
        return value
    }

    /// The proof's own checks, then the nonce when required.
    private func verify(
        _ header: String, _ request: HTTPRequest, accessToken: String?, atTokenEndpoint: Bool, now: Date
    ) throws(ServiceError) -> DPoPProof {
        let proof: DPoPProof
        do {
            proof = try verifier.verify(
                header, method: request.method.rawValue, targetURI: targetURI(of: request), accessToken: accessToken,
                now: now)
        } catch {
            metrics.rejected(.proof(error))
            throw .invalidDPoPProof(atTokenEndpoint: atTokenEndpoint)
        }
        if let nonces {
            guard let nonce = proof.nonce, nonces.accepts(nonce, now: now) else {
                metrics.rejected(.nonce)
                throw .useDPoPNonce(nonce: nonces.current(now: now), atTokenEndpoint: atTokenEndpoint)
            }
        }
        return proof
    }

    /// The URI the request was meant for, as `htu` must name it: `server.publicURL` + path, or without it
    /// `http://<Host>` + path.
    func targetURI(of request: HTTPRequest) -> String {
        if let publicURL { return publicURL + request.path }
        return "http://" + (request.headers["Host"] ?? "") + request.path
    }

    private func decide(_ outcome: DPoPReplayCache.Outcome, atTokenEndpoint: Bool) throws(ServiceError) {
        switch outcome {
        case .fresh:
            metrics.accepted()
        case .replayed:
            metrics.rejected(.replayed)
            throw .invalidDPoPProof(atTokenEndpoint: atTokenEndpoint)
        case .full:
            metrics.rejected(.capacity)
            throw .unavailable("Too many DPoP proofs to track; retry later.", retryAfter: 5)
        }
    }
}
