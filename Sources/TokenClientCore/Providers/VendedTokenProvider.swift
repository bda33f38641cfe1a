import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Supplies a third-party token from `POST /vend/<vendor>`, one configured vendor with fixed parameters
/// (a Stream Chat user token, a Twilio access token, a LiveKit participant token for one room…).
///
/// The token is cached until `margin` seconds (default 60) before it expires, and concurrent callers coalesce
/// onto one request. The expiry is the answer's `expiresAt` (else receipt plus `expiresIn`); for LiveKit's
/// answer shape, the token's `exp`. The cached token is dropped when the session's
/// ``AuthenticatedTransport/tokenOwner`` changes: for an ``AuthSession``, when it signs out or another user
/// signs in. After a 429 or 503 with `Retry-After: <seconds>`, calls throw that error again without a request
/// until the time has passed (5 minutes at most) or ``invalidate()`` is called.
///
/// ```swift
/// let chat = VendedTokenProvider(session: session, vendor: "stream-chat")
/// let userToken = try await chat.token()  // for the chat SDK's connect call; its user id is the session's
///
/// let call = VendedTokenProvider(session: session, vendor: "livekit", parameters: ["room_name": "standup"])
/// let (serverURL, token) = try await call.connectionDetails()
/// try await room.connect(url: serverURL.absoluteString, token: token)
/// ```
public final class VendedTokenProvider<Session: AuthenticatedTransport>: Sendable {
    /// The parameters sent as the JSON body, each checked by the server against the vendor's declaration.
    public let parameters: [String: VendorParameterValue]
    private let endpoint: VendEndpoint<Session>
    private let cache: TokenCache<VendedCredential>

    /// Creates a provider.
    /// - Parameters:
    ///   - session: authenticates the requests (usually an ``AuthSession``).
    ///   - vendor: the vendor's name in the server's `vendors` configuration, e.g. `stream-chat`.
    ///   - parameters: the body, e.g. `["room_name": "standup"]`; empty (`{}`) by default. The identity is never
    ///     a parameter: the server takes it from the session.
    ///   - margin: replace the token this many seconds before it expires; 60 by default.
    ///   - now: the clock; the system clock by default.
    public convenience init(
        session: Session,
        vendor: String,
        parameters: [String: VendorParameterValue] = [:],
        margin: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            endpoint: VendEndpoint(session: session, vendor: vendor, margin: margin, now: now), parameters: parameters)
    }

    /// A provider on a shared endpoint (``BloomreachCustomerTokenProvider`` makes one per customer-id set).
    init(endpoint: VendEndpoint<Session>, parameters: [String: VendorParameterValue]) {
        self.endpoint = endpoint
        self.parameters = parameters
        self.cache = TokenCache(now: endpoint.clock)
    }

    /// The session the token requests are authenticated with.
    public var session: Session { endpoint.session }
    /// The vendor's name, the last path component of `POST /vend/<vendor>`.
    public var vendor: String { endpoint.vendor }
    /// Seconds before expiry at which the cached token is replaced.
    public var margin: TimeInterval { endpoint.margin }

    /// The raw token (no `Bearer ` prefix), from cache while more than `margin` seconds remain.
    /// - Throws: whatever the session throws (``TokenClientError/signedOut``…);
    ///   ``TokenClientError/server(status:body:)``: 404 `not_found` (no such vendor), 400 `invalid_request`
    ///   (the message names the undeclared, missing or invalid parameter), 403 `insufficient_scope` (a value the
    ///   user may not have, such as customer ids that are not theirs or a room their role may not join),
    ///   503 `unavailable` (the vendor is configured without keys); ``TokenClientError/invalidResponse`` when
    ///   the answer cannot be read.
    public func token() async throws -> String {
        try await credential().token.token
    }

    /// The token with its expiry and the time it will be replaced.
    /// - Throws: like ``token()``.
    public func currentToken() async throws -> ExpiringToken {
        try await credential().token
    }

    /// LiveKit's connection details (the vendor answers in LiveKit's token-endpoint shape,
    /// `{"server_url", "participant_token"}`), for `Room.connect(url:token:)`.
    /// - Throws: like ``token()``; ``TokenClientError/invalidResponse`` when the vendor answers
    ///   `{"token", …}` instead, which has no server URL.
    public func connectionDetails() async throws -> (serverURL: URL, token: String) {
        let credential = try await credential()
        guard let serverURL = credential.serverURL else { throw TokenClientError.invalidResponse }
        return (serverURL, credential.token.token)
    }

    /// Forgets the cached token (e.g. after the vendor rejected it) and any `Retry-After` wait, so the next call
    /// sends a request.
    public func invalidate() async {
        endpoint.clearBackoff()
        await cache.invalidate()
    }

    private func credential() async throws -> VendedCredential {
        try await cache.token(owner: await endpoint.session.tokenOwner) { [endpoint, parameters] in
            try await endpoint.fetch(parameters)
        }
    }
}
