import AuthAPI

/// The two halves of ``send(_:)`` for stacks that send requests themselves (Alamofire's `RequestInterceptor`,
/// a Moya plugin, a custom transport); `TokenClient` adds the same two for `URLRequest`.
extension AuthSession {
    /// `request` with `Authorization: Bearer <access token>` when it goes to `baseURL`'s origin or a trusted host
    /// (refreshing first when the token expires within the leeway); any other request is returned unchanged.
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/storageLocked``, and what a refresh throws.
    public func authorize(_ request: TransportRequest) async throws -> TransportRequest {
        guard origins.trusts(request.url) else { return request }
        try prepare()
        return authorized(request, try await usableTokens().accessToken)
    }

    /// What to send after `response` refused `request`: the request again with a newer token, or `nil` when it
    /// should not be retried.
    ///
    /// Only a 401 whose `WWW-Authenticate` says `error="invalid_token"`, for a request this session authorized
    /// (its bearer is one of the current sign-in's tokens: never a request made as a user who has since signed
    /// out), on a trusted origin, without a stream body, is retried; the newer token is the one another caller
    /// already got, or one shared refresh. Call it once per request: a second 401 is final.
    /// - Throws: what a refresh throws (``TokenClientError/signedOut`` when the refresh token was refused).
    public func handleRejection(of request: TransportRequest, response: TransportResponse) async throws
        -> TransportRequest?
    {
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
