public import Foundation

extension AuthSession {
    /// Creates a session that sends its requests through a ``URLSessionTransport`` (an ephemeral `URLSession`),
    /// reading the store once (a store that cannot be read gives ``SessionState/locked``).
    /// - Parameters:
    ///   - baseURL: the API root.
    ///   - store: where tokens persist; in memory by default.
    ///   - trustedHosts: hosts besides `baseURL`'s origin that may receive the bearer token (any port, https, or
    ///     the base URL's scheme).
    ///   - refreshLeeway: refresh before sending when the access token expires within this many seconds
    ///     (default 30); a 401 still triggers a refresh whatever the clock says.
    ///   - refreshTimeout: the longest a refresh or logout request may take (default 5 s); keep it below the
    ///     server's `refreshToken.reuseGraceSeconds` (10 s by default).
    ///   - lockedRetryInterval: how often a locked store is read again (default 5 s).
    ///   - integrity: proves the app's integrity to the server (`AppAttestIntegrityProvider` with
    ///     ``DeviceCheckAppAttestService``, `DebugIntegrityProvider`…); `nil` sends no `X-App-Integrity`.
    ///   - dpop: binds the session to a DPoP key (`DPoPConfiguration`: a Secure Enclave key in the Keychain…);
    ///     `nil` sends no proofs.
    ///   - now: the clock used for expiry, backoff and the proofs' `iat`; the system clock by default.
    public init(
        baseURL: URL,
        store: any TokenStore = InMemoryTokenStore(),
        trustedHosts: Set<String> = [],
        refreshLeeway: TimeInterval = 30,
        refreshTimeout: TimeInterval = 5,
        lockedRetryInterval: TimeInterval = 5,
        integrity: (any AppIntegrityProvider)? = nil,
        dpop: DPoPConfiguration? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            baseURL: baseURL, transport: URLSessionTransport(), store: store, trustedHosts: trustedHosts,
            refreshLeeway: refreshLeeway, refreshTimeout: refreshTimeout, lockedRetryInterval: lockedRetryInterval,
            integrity: integrity, dpop: dpop, now: now)
    }
}
