public import AuthAPI
#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A user's session with a tokenvend server (bearer strategy): login, refresh, logout, and authenticated
/// requests that refresh **once** on a 401 and retry once.
///
/// Built for mobile networks and for several processes sharing one store:
/// - Concurrent callers that find the access token expired, or get a 401 for it, share one refresh (single
///   flight). A 401 for a token that has meanwhile been replaced is retried with the newer one without another
///   refresh. Only a 401 whose `WWW-Authenticate` says `error="invalid_token"` counts: a proxy's or a captive
///   portal's 401 is returned as is.
/// - A refresh has its own short timeout (`refreshTimeout`, 5 s: below the server's reuse grace window) and is
///   retried once at once after a lost answer or a 5xx, so a rotation whose answer was lost converges on the same
///   pair instead of presenting a spent token later. After that it backs off, honouring `Retry-After`.
/// - Only a refresh refused with `invalid_grant` signs out, and only when the store holds no newer pair. Before
///   each refresh the session takes the store's lock (``TokenStore/lock()``) and re-reads it, adopting a pair
///   another process rotated.
/// - A store that cannot be read (the Keychain before the first unlock) gives ``SessionState/locked``, never
///   a sign-out; the session reads it again by itself. A save that fails is retried and announced
///   (``SessionEvent/saveFailed(_:)``).
/// - ``logout(scope:)`` never waits for a refresh in flight; a logout the server did not get is kept and sent
///   again.
/// - The bearer goes only to `baseURL`'s origin and to `trustedHosts`.
///
/// The state is observable through ``stateUpdates()``, what happened through ``events()``, and both
/// synchronously through ``snapshot``.
public actor AuthSession: AuthenticatedTransport {
    /// The API root, e.g. `https://api.example.com/`; paths such as `auth/login` are appended to it.
    public nonisolated let baseURL: URL
    let transport: any HTTPTransport
    /// The transport that attaches `X-App-Integrity` (``transport`` itself) when the session has a provider.
    let integrityTransport: IntegrityTransport?
    /// The transport that signs DPoP proofs (under the integrity one) when the session has a ``DPoPConfiguration``.
    let dpopTransport: DPoPTransport?
    let store: any TokenStore
    let now: @Sendable () -> Date
    let refreshLeeway: TimeInterval
    let refreshTimeout: TimeInterval
    let lockedRetryInterval: TimeInterval
    let origins: TrustedOrigins

    var tokens: StoredTokens? {
        didSet { updateSnapshot() }
    }
    /// The current state; every change is published to the ``stateUpdates()`` streams.
    public private(set) var state: SessionState {
        didSet { updateSnapshot() }
    }
    /// The last error the ``TokenStore`` threw, if any (the in-memory tokens stay authoritative).
    public internal(set) var lastStorageError: TokenClientError?
    var refreshInFlight: (id: UInt64, task: Task<StoredTokens, any Error>)?
    var nextID: UInt64 = 0
    var observers: [UInt64: AsyncStream<SessionState>.Continuation] = [:]
    var eventObservers: [UInt64: AsyncStream<SessionEvent>.Continuation] = [:]
    /// Bumped by every sign-in and sign-out: a 401 answered in one generation is never retried in another, so a
    /// request is never replayed as another user.
    var generation: UInt64 = 0
    /// The access tokens this generation has held (the newest last, at most 16), to recognise a rejected request
    /// as one of ours in ``handleRejection(of:response:)``.
    var generationAccessTokens: [String] = []
    /// Refreshes that failed in a row, and when the next may be sent.
    var backoff: RefreshBackoff?
    /// Tokens the store refused to save; written again by the next call.
    var pendingSave: StoredTokens?
    /// Logouts the server did not get; sent again later.
    var pendingLogouts: [PendingLogout] = []
    var lastPendingLogoutAttempt: Date?
    var lockedRetryRunning = false
    private nonisolated let snapshotBox: Locked<SessionSnapshot>

    /// Creates a session, reading the store once (a store that cannot be read gives ``SessionState/locked``).
    /// - Parameters:
    ///   - baseURL: the API root.
    ///   - transport: how requests are sent (`TokenClient` adds an initializer without it, for `URLSession`).
    ///   - store: where tokens persist; in memory by default.
    ///   - trustedHosts: hosts besides `baseURL`'s origin that may receive the bearer token (any port, https, or
    ///     the base URL's scheme).
    ///   - refreshLeeway: refresh before sending when the access token expires within this many seconds
    ///     (default 30); a 401 still triggers a refresh whatever the clock says.
    ///   - refreshTimeout: the longest a refresh or logout request may take (default 5 s), enforced around any
    ///     transport; keep it below the server's `refreshToken.reuseGraceSeconds` (10 s by default).
    ///   - lockedRetryInterval: how often a locked store is read again (default 5 s).
    ///   - integrity: proves the app's integrity to the server (``AppAttestIntegrityProvider``,
    ///     ``DebugIntegrityProvider``…): every request to the server but `/integrity/*` then carries
    ///     `X-App-Integrity`, obtained lazily, renewed 60 s before it expires and once when the server refuses it.
    ///     `nil` (the default) sends none.
    ///   - dpop: binds the session to a DPoP key (RFC 9449): every request to the server then carries a `DPoP`
    ///     proof, a bound session's access token goes out as `Authorization: DPoP …`, and the key (kept in the
    ///     configuration's ``DPoPKeyStore``) is deleted at sign-out. `nil` (the default) sends no proofs.
    ///   - now: the clock used for expiry, backoff and the proofs' `iat`; the system clock by default.
    public init(
        baseURL: URL,
        transport: any HTTPTransport,
        store: any TokenStore = InMemoryTokenStore(),
        trustedHosts: Set<String> = [],
        refreshLeeway: TimeInterval = 30,
        refreshTimeout: TimeInterval = 5,
        lockedRetryInterval: TimeInterval = 5,
        integrity: (any AppIntegrityProvider)? = nil,
        dpop: DPoPConfiguration? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        let dpopTransport = dpop.map { DPoPTransport(base: transport, baseURL: baseURL, configuration: $0, now: now) }
        self.dpopTransport = dpopTransport
        let signing: any HTTPTransport = dpopTransport ?? transport
        let integrityTransport = integrity.map {
            IntegrityTransport(base: signing, baseURL: baseURL, provider: $0, now: now)
        }
        self.integrityTransport = integrityTransport
        self.transport = integrityTransport ?? signing
        self.store = store
        self.origins = TrustedOrigins(baseURL: baseURL, hosts: trustedHosts)
        self.refreshLeeway = refreshLeeway
        self.refreshTimeout = refreshTimeout
        self.lockedRetryInterval = lockedRetryInterval
        self.now = now
        var loaded: StoredTokens?
        var locked = false
        do {
            loaded = try store.load()
        } catch {
            locked = true
            self.lastStorageError = TokenClientError.storage(from: error)
        }
        let state: SessionState = locked ? .locked : loaded.map { .signedIn($0.user) } ?? .signedOut
        self.tokens = loaded
        self.state = state
        self.generationAccessTokens = loaded.map { [$0.accessToken] } ?? []
        self.lockedRetryRunning = locked
        self.snapshotBox = Locked(
            SessionSnapshot(
                state: state, accessToken: loaded?.accessToken, accessTokenExpiresAt: loaded?.accessTokenExpiresAt,
                user: loaded?.user, tokenType: loaded?.tokenType))
        if locked { Self.retryWhileLocked(self, every: lockedRetryInterval) }
    }

    deinit {
        for continuation in observers.values { continuation.finish() }
        for continuation in eventObservers.values { continuation.finish() }
    }

    /// The session at this instant, readable from any thread without `await`: for APIs that cannot suspend
    /// (Moya's `AccessTokenPlugin`, a synchronous SDK callback).
    public nonisolated var snapshot: SessionSnapshot { snapshotBox.withLock { $0 } }

    /// The signed-in user, when known.
    public var user: User? { tokens?.user }

    /// Who tokens vended for this session belong to: the user's id (empty when the stored tokens name no
    /// user), `nil` when signed out. The token providers drop their cache when it changes.
    public var tokenOwner: String? { tokens.map { $0.user?.id ?? "" } }

    /// A stream that yields the current state at once, then every change, until the session is released
    /// or the consumer stops iterating.
    public func stateUpdates() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionState.self)
        nextID += 1
        let id = nextID
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(state)
        return stream
    }

    /// A stream of what happens to the session from now on (sign-in, refresh, sign-out with its reason, a locked
    /// store, a failed save), until the session is released or the consumer stops iterating. A session that is
    /// locked when the stream is made yields ``SessionEvent/locked`` first, so no subscriber misses it.
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
        nextID += 1
        let id = nextID
        eventObservers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeEventObserver(id) }
        }
        if state == .locked { continuation.yield(.locked) }
        return stream
    }

    /// Signs in with the bearer strategy, stores the tokens and publishes ``SessionState/signedIn(_:)``.
    /// Logouts the server missed are sent first.
    /// - Returns: the signed-in user.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_credentials`, 429
    ///   `too_many_requests`…), ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    @discardableResult
    public func login(email: String, password: String) async throws -> User {
        await retryPendingLogouts()
        var request = makeRequest("POST", "auth/login", body: LoginRequest(email: email, password: password))
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let (data, response) = try await WireCoding.exchange(transport, request)
        let answer = try WireCoding.decodeSuccess(TokenResponse.self, data: data, response: response)
        let received = try storedTokens(from: answer)
        adoptSignIn(received)
        return answer.user
    }

    /// A usable access token, refreshing first when it is known to expire within the leeway. For requests
    /// the session cannot send itself (e.g. a WebSocket upgrade).
    /// - Throws: ``TokenClientError/signedOut``, ``TokenClientError/storageLocked`` and whatever a refresh throws.
    public func accessToken() async throws -> String {
        try prepare()
        return try await usableTokens().accessToken
    }

    /// Sends `request`, with `Authorization: Bearer <access token>` (`DPoP <access token>` and a proof for a bound
    /// session) when it goes to `baseURL`'s origin or a trusted host (any other request is sent unchanged, and never
    /// retried).
    ///
    /// Refreshes first when the token is known to have expired. On a 401 whose `WWW-Authenticate` says
    /// `error="invalid_token"` (or a `DPoP` challenge saying so) it obtains a newer token (one shared refresh, or the token another caller already
    /// got) and retries **once**; any other status, and any other 401, is returned as is. The body is re-sent on
    /// the retry; a request whose body is a stream (from `TokenClient`'s `URLRequest` face) is not replayed, nor one
    /// whose session changed meanwhile (a login as another user).
    /// - Throws: ``TokenClientError/server(status:body:)`` for a 401 the retry did not cure (or that could not be
    ///   retried), ``TokenClientError/signedOut`` when there is no session or the refresh was refused,
    ///   ``TokenClientError/storageLocked``, ``TokenClientError/transport(_:)``.
    public func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        guard origins.trusts(request.url) else { return try await WireCoding.exchange(transport, request) }
        try prepare()
        let startedIn = generation
        let first = try await usableTokens()
        let (data, response) = try await WireCoding.exchange(transport, authorized(request, first))
        guard Self.isTokenRejection(response) else { return (data, response) }
        let refused = TokenClientError.server(status: 401, body: WireCoding.errorBody(data))
        guard request.isReplayable else {
            // The stream has been read: renew for the next request, but do not replay this one.
            _ = try? await renewedTokens(replacing: first.accessToken)
            throw refused
        }
        let renewed = try await renewedTokens(replacing: first.accessToken)
        guard generation == startedIn else { throw refused }
        let retry = try await WireCoding.exchange(transport, authorized(request, renewed))
        guard retry.1.statusCode != 401 else {
            throw TokenClientError.server(status: 401, body: WireCoding.errorBody(retry.0))
        }
        return retry
    }

    /// True for a 401 whose challenge says the bearer token itself was refused.
    static func isTokenRejection(_ response: TransportResponse) -> Bool {
        response.statusCode == 401
            && BearerChallenge.isInvalidToken(response.value(forHTTPHeaderField: HeaderName.wwwAuthenticate))
    }

    /// Sends `request` (a refresh or a logout) without credentials of its own, within ``refreshTimeout``: set as
    /// ``TransportRequest/timeoutInterval`` and enforced by ``Deadline`` whatever the transport does.
    func exchangeWithinRefreshTimeout(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        var request = request
        request.timeoutInterval = refreshTimeout
        let transport = self.transport
        let sent = request
        return try await Deadline.run(seconds: refreshTimeout) { try await WireCoding.exchange(transport, sent) }
    }

    /// `request` presenting `tokens`' access token: `Bearer`, or `DPoP` for a bound session.
    func authorized(_ request: TransportRequest, _ tokens: StoredTokens) -> TransportRequest {
        var request = request
        request.setValue(tokens.authorizationValue, forHTTPHeaderField: HeaderName.authorization)
        return request
    }

    /// The record of a token answer. The access token's expiry is counted from receipt (`expiresIn`), so a
    /// device clock that is off does not matter; the refresh token's is the server's `refreshExpiresAt` moved
    /// onto the device clock by the difference between the server's `expiresAt` and `expiresIn`.
    func storedTokens(from answer: TokenResponse) throws -> StoredTokens {
        guard let access = answer.accessToken, let refresh = answer.refreshToken, !access.isEmpty, !refresh.isEmpty
        else { throw TokenClientError.invalidResponse }
        let received = now()
        let expiresAt = received.addingTimeInterval(TimeInterval(answer.expiresIn))
        var refreshExpiresAt: Date?
        if let serverRefresh = answer.refreshExpiresAt {
            let serverNow = answer.expiresAt.map { $0 - Int64(answer.expiresIn) }
            refreshExpiresAt =
                serverNow.map { received.addingTimeInterval(TimeInterval(serverRefresh - $0)) }
                ?? Date(timeIntervalSince1970: TimeInterval(serverRefresh))
        }
        return StoredTokens(
            accessToken: access, refreshToken: refresh, accessTokenExpiresAt: expiresAt, user: answer.user,
            refreshTokenExpiresAt: refreshExpiresAt, tokenType: answer.tokenType ?? TokenResponse.bearerType)
    }

    /// Starts a new generation with the tokens of a login or sign-in, and publishes ``SessionEvent/signedIn(_:)``.
    func adoptSignIn(_ received: StoredTokens) {
        refreshInFlight = nil
        backoff = nil
        generation += 1
        generationAccessTokens = []
        replaceTokens(received)
        emit(.signedIn(received.user))
    }

    /// Holds and persists `new`, and publishes ``SessionState/signedIn(_:)``. A failed save keeps `new` in memory,
    /// publishes ``SessionEvent/saveFailed(_:)`` and is retried by the next call.
    func replaceTokens(_ new: StoredTokens) {
        hold(new)
        save(new)
        publish(.signedIn(new.user))
    }

    /// Makes `new` the session's pair in memory and remembers its access token as one of this generation's (the
    /// newest 16). Every way a pair arrives goes through here: a login, a refresh, the store.
    func hold(_ new: StoredTokens) {
        tokens = new
        generationAccessTokens.append(new.accessToken)
        if generationAccessTokens.count > 16 { generationAccessTokens.removeFirst() }
    }

    /// True when `date` is known and has passed on the session's clock (an unknown expiry never has).
    func hasPassed(_ date: Date?) -> Bool {
        date.map { now() >= $0 } ?? false
    }

    /// Writes `tokens`; on failure remembers them for ``retryPendingSave()`` and announces it.
    func save(_ tokens: StoredTokens) {
        do {
            try store.save(tokens)
            pendingSave = nil
        } catch {
            let failure = TokenClientError.storage(from: error)
            lastStorageError = failure
            pendingSave = tokens
            emit(.saveFailed(failure))
        }
    }

    /// Forgets the tokens (memory and store) and the DPoP key (deleted from its store), ends the generation and
    /// publishes ``SessionState/signedOut`` and ``SessionEvent/signedOut(reason:)``.
    /// - Returns: the DPoP key the session had, to sign a request still to be sent for it (the logout).
    @discardableResult
    func signOutLocally(reason: SignOutReason) -> (any DPoPKey)? {
        // Before the store is cleared: a FileTokenStore holds the key too.
        let key = dpopTransport?.keys.discard()
        tokens = nil
        refreshInFlight = nil
        backoff = nil
        pendingSave = nil
        generation += 1
        generationAccessTokens = []
        do {
            try store.clear()
        } catch {
            lastStorageError = TokenClientError.storage(from: error)
        }
        publish(.signedOut)
        emit(.signedOut(reason: reason))
        return key
    }

    func publish(_ new: SessionState) {
        guard new != state else { return }
        state = new
        for continuation in observers.values { continuation.yield(new) }
    }

    func emit(_ event: SessionEvent) {
        for continuation in eventObservers.values { continuation.yield(event) }
    }

    private func updateSnapshot() {
        let snapshot = SessionSnapshot(
            state: state, accessToken: tokens?.accessToken, accessTokenExpiresAt: tokens?.accessTokenExpiresAt,
            user: tokens?.user, tokenType: tokens?.tokenType)
        snapshotBox.withLock { $0 = snapshot }
    }

    private func removeObserver(_ id: UInt64) {
        observers[id] = nil
    }

    private func removeEventObserver(_ id: UInt64) {
        eventObservers[id] = nil
    }
}
