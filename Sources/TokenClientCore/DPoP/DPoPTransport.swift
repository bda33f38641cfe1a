public import AuthAPI

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The transport an ``AuthSession`` with a ``DPoPConfiguration`` sends through, closest to the network: adds a
/// fresh `DPoP` proof to every request for the server (`baseURL`'s origin) and to any request that presents a token
/// with the `DPoP` scheme, with `ath` when the request carries an access token; remembers each origin's
/// `DPoP-Nonce`; and on `use_dpop_nonce` (400 with that code, or 401 with `WWW-Authenticate: DPoP
/// error="use_dpop_nonce"`) signs again with the new nonce and sends again once.
///
/// Being innermost, every send (the session's retry after a refresh, the integrity renewal's) gets its own proof and
/// `jti`.
struct DPoPTransport: HTTPTransport {
    let base: any HTTPTransport
    let baseURL: URL
    let keys: DPoPKeyHolder
    let nonces: DPoPNonceBook
    let now: @Sendable () -> Date

    /// Which key signs the current task's requests: the session's, or (a logout sent after the session forgot its
    /// key) the one it had, or none.
    @TaskLocal static var signing = Signing.session

    /// What ``signing`` can say.
    enum Signing: Sendable {
        /// The session's key (loaded or made when needed).
        case session
        /// This key.
        case pinned(any DPoPKey)
        /// No proof.
        case unsigned
    }

    init(base: any HTTPTransport, baseURL: URL, configuration: DPoPConfiguration, now: @escaping @Sendable () -> Date) {
        self.base = base
        self.baseURL = baseURL
        self.keys = DPoPKeyHolder(configuration: configuration)
        self.nonces = DPoPNonceBook()
        self.now = now
    }

    /// Sends `request`, with a proof when it needs one.
    /// - Throws: what ``signed(_:)`` throws, and what the base transport throws.
    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        guard needsProof(request), let key = try signingKey() else { return try await base.send(request) }
        let first = try await base.send(try signed(request, with: key))
        nonces.record(first.1, for: request.url)
        guard request.isReplayable, Self.isNonceChallenge(first.1, first.0) else { return first }
        let retry = try await base.send(try signed(request, with: key))
        nonces.record(retry.1, for: request.url)
        return retry
    }

    /// True for a request to the server's origin, or one presenting a token with the `DPoP` scheme.
    func needsProof(_ request: TransportRequest) -> Bool {
        if Self.presentedToken(request)?.scheme == .dpop { return true }
        return DPoPNonceBook.origin(of: request.url) == DPoPNonceBook.origin(of: baseURL)
    }

    /// The key that signs the current task's requests (``signing``), `nil` for none.
    /// - Throws: ``TokenClientError/storageLocked``, ``TokenClientError/storage(_:)``, ``TokenClientError/dpop(_:)``
    ///   when the session's key could not be loaded, made or saved.
    func signingKey() throws -> (any DPoPKey)? {
        switch Self.signing {
        case .session: try keys.key()
        case .pinned(let key): key
        case .unsigned: nil
        }
    }

    /// `request` with a new `DPoP` proof by `key` (replacing any), with the origin's last nonce, and `ath` for the
    /// access token its `Authorization` presents.
    /// - Throws: ``TokenClientError/dpop(_:)`` when the key cannot sign.
    func signed(_ request: TransportRequest, with key: any DPoPKey) throws -> TransportRequest {
        let proof = try DPoPProofSigner(key: key, now: now).proof(
            method: request.method, url: request.url, accessToken: Self.presentedToken(request)?.token,
            nonce: nonces.nonce(for: request.url))
        var request = request
        request.setValue(proof, forHTTPHeaderField: HeaderName.dpop)
        return request
    }

    /// The scheme and token of the request's `Authorization`, when it is `Bearer` or `DPoP`.
    static func presentedToken(_ request: TransportRequest) -> (scheme: Scheme, token: String)? {
        guard let header = request.value(forHTTPHeaderField: HeaderName.authorization),
            let space = header.firstIndex(of: " ")
        else { return nil }
        let token = header[header.index(after: space)...].trimmingOptionalWhitespace()
        guard !token.isEmpty else { return nil }
        switch header[..<space].lowercased() {
        case "bearer": return (.bearer, token)
        case "dpop": return (.dpop, token)
        default: return nil
        }
    }

    /// The two schemes an access token is presented with.
    enum Scheme {
        case bearer, dpop
    }

    /// True for the server's request for a (new) nonce: 400 `use_dpop_nonce` (token endpoints), or 401 with
    /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` (`data` `nil`: the challenge alone).
    static func isNonceChallenge(_ response: TransportResponse, _ data: Data?) -> Bool {
        let challenge = response.value(forHTTPHeaderField: HeaderName.wwwAuthenticate)
        switch response.statusCode {
        case 401: return BearerChallenge.hasError("use_dpop_nonce", schemes: ["dpop"], challenge)
        case 400: return data.flatMap(WireCoding.errorBody)?.error == .useDPoPNonce
        default: return false
        }
    }
}
