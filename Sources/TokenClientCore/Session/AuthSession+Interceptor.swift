import AuthAPI

/// The two halves of ``send(_:)`` for stacks that send requests themselves (Alamofire's `RequestInterceptor`,
/// a Moya plugin, a custom transport); `TokenClient` adds the same two for `URLRequest`.
extension AuthSession {
    /// `request` with `Authorization: Bearer <access token>` when it goes to `baseURL`'s origin or a trusted host
    /// (refreshing first when the token expires within the leeway), and with `X-App-Integrity` when the session has
    /// an ``AppIntegrityProvider`` and it goes to the server; any other request is returned unchanged.
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/storageLocked``, what a refresh throws, and
    ///   ``TokenClientError/integrity(_:)``.
    public func authorize(_ request: TransportRequest) async throws -> TransportRequest {
        guard origins.trusts(request.url) else { return request }
        try prepare()
        var request = authorized(request, try await usableTokens().accessToken)
        if let integrityTransport, integrityTransport.needsIntegrity(request.url) {
            let value = try await integrityTransport.cache.credential().value
            request.setValue(value, forHTTPHeaderField: HeaderName.appIntegrity)
        }
        return request
    }

    /// What to send after `response` refused `request`: the request again with a newer token, or `nil` when it
    /// should not be retried.
    ///
    /// Only a 401 whose `WWW-Authenticate` says `error="invalid_token"`, for a request this session authorized
    /// (its bearer is one of the current sign-in's tokens: never a request made as a user who has since signed
    /// out), on a trusted origin, without a stream body, is retried; the newer token is the one another caller
    /// already got, or one shared refresh. A 401 with `WWW-Authenticate: AppIntegrity` for a request that carried
    /// `X-App-Integrity` gives the request with a renewed value instead (no refresh). Call it once per request: a
    /// second 401 is final.
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
        guard origins.trusts(request.url), Self.isTokenRejection(response), request.isReplayable,
            let header = request.value(forHTTPHeaderField: HeaderName.authorization), header.hasPrefix("Bearer ")
        else { return nil }
        let sent = String(header.dropFirst("Bearer ".count))
        guard generationAccessTokens.contains(sent) else { return nil }
        try prepare()
        let startedIn = generation
        let renewed = try await renewedTokens(replacing: sent)
        guard generation == startedIn else { return nil }
        return authorized(request, renewed.accessToken)
    }
}
