import AuthAPI

/// The two halves of ``send(_:)`` for stacks that send requests themselves (Alamofire's `RequestInterceptor`,
/// a Moya plugin, a custom transport); `TokenClient` adds the same two for `URLRequest`.
extension AuthSession {
    /// `request` with `Authorization: Bearer <access token>` when it goes to `baseURL`'s origin or a trusted host
    /// (refreshing first when the token expires within the leeway), and with `X-App-Integrity` when the session has
    /// an ``AppIntegrityProvider`` and it goes to the server; any other request is returned unchanged. With a
    /// ``DPoPConfiguration``, a request to the server also gets a fresh `DPoP` proof, and a bound session's token goes
    /// as `Authorization: DPoP …`: send the result once (a proof's `jti` is accepted once).
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/storageLocked``, what a refresh throws,
    ///   ``TokenClientError/integrity(_:)`` and ``TokenClientError/dpop(_:)``.
    public func authorize(_ request: TransportRequest) async throws -> TransportRequest {
        guard origins.trusts(request.url) else { return request }
        try prepare()
        var request = authorized(request, try await usableTokens())
        if let integrityTransport, integrityTransport.needsIntegrity(request.url) {
            let value = try await integrityTransport.cache.credential().value
            request.setValue(value, forHTTPHeaderField: HeaderName.appIntegrity)
        }
        return try withProof(request)
    }

    /// `request` with a new DPoP proof when the session has a ``DPoPConfiguration`` and the request needs one.
    func withProof(_ request: TransportRequest) throws -> TransportRequest {
        guard let dpopTransport, dpopTransport.needsProof(request), let key = try dpopTransport.signingKey() else {
            return request
        }
        return try dpopTransport.signed(request, with: key)
    }

    /// What to send after `response` refused `request`: the request again with a newer token, or `nil` when it
    /// should not be retried.
    ///
    /// Only a 401 whose `WWW-Authenticate` says `error="invalid_token"`, for a request this session authorized
    /// (its bearer is one of the current sign-in's tokens: never a request made as a user who has since signed
    /// out), on a trusted origin, without a stream body, is retried; the newer token is the one another caller
    /// already got, or one shared refresh. A 401 with `WWW-Authenticate: AppIntegrity` for a request that carried
    /// `X-App-Integrity` gives the request with a renewed value instead (no refresh). With a ``DPoPConfiguration``,
    /// the answer's `DPoP-Nonce` is remembered, a 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"` gives the
    /// request with a proof carrying the new nonce, and every request returned carries a fresh proof. Call it once
    /// per request: a second 401 is final.
    /// - Throws: what a refresh throws (``TokenClientError/signedOut`` when the refresh token was refused).
    public func handleRejection(of request: TransportRequest, response: TransportResponse) async throws
        -> TransportRequest?
    {
        if let integrityTransport, IntegrityTransport.isIntegrityRejection(response, nil), request.isReplayable,
            let sent = request.value(forHTTPHeaderField: HeaderName.appIntegrity)
        {
            var request = request
            let renewed = try await integrityTransport.cache.renewed(replacing: sent).value
            request.setValue(renewed, forHTTPHeaderField: HeaderName.appIntegrity)
            return request
        }
        if let dpopTransport, request.value(forHTTPHeaderField: HeaderName.dpop) != nil {
            dpopTransport.nonces.record(response, for: request.url)
            if request.isReplayable, DPoPTransport.isNonceChallenge(response, nil) { return try withProof(request) }
        }
        guard origins.trusts(request.url), Self.isTokenRejection(response), request.isReplayable,
            let sent = DPoPTransport.presentedToken(request)?.token
        else { return nil }
        guard generationAccessTokens.contains(sent) else { return nil }
        try prepare()
        let startedIn = generation
        let renewed = try await renewedTokens(replacing: sent)
        guard generation == startedIn else { return nil }
        return try withProof(authorized(request, renewed))
    }
}
