public import AuthAPI
public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A user's session with a tokenvend server (bearer strategy): login, refresh, logout, and authenticated
/// requests that refresh **once** on a 401 and retry once.
///
/// - Concurrent callers that find the access token expired, or get a 401 for it, share one refresh
///   (single flight). A 401 for a token that has meanwhile been replaced is retried with the newer one
///   without another refresh.
/// - A refresh refused with `invalid_grant` clears the tokens and moves to ``SessionState/signedOut``.
/// - The state is observable through ``stateUpdates()``.
/// - Tokens live in memory and are written through to the ``TokenStore``; the session starts from whatever
///   the store holds (an unreadable store counts as empty).
public actor AuthSession: AuthenticatedTransport {
    /// The API root, e.g. `https://api.example.com/`; paths such as `auth/login` are appended to it.
    public nonisolated let baseURL: URL
    let transport: any HTTPTransport
    let store: any TokenStore
    let now: @Sendable () -> Date
    let refreshLeeway: TimeInterval

    var tokens: StoredTokens?
    /// The current state; every change is published to the ``stateUpdates()`` streams.
    public private(set) var state: SessionState
    /// The last error the ``TokenStore`` threw, if any (the in-memory tokens stay authoritative).
    public internal(set) var lastStorageError: TokenClientError?
    var refreshInFlight: (id: UInt64, task: Task<StoredTokens, any Error>)?
    var nextID: UInt64 = 0
    var observers: [UInt64: AsyncStream<SessionState>.Continuation] = [:]

    /// Creates a session.
    /// - Parameters:
    ///   - baseURL: the API root.
    ///   - transport: how requests are sent; a ``URLSessionTransport`` by default.
    ///   - store: where tokens persist; in memory by default.
    ///   - refreshLeeway: refresh before sending when the access token expires within this many seconds
    ///     (default 30); a 401 still triggers a refresh whatever the clock says.
    ///   - now: the clock used for expiry; the system clock by default.
    public init(
        baseURL: URL,
        transport: any HTTPTransport = URLSessionTransport(),
        store: any TokenStore = InMemoryTokenStore(),
        refreshLeeway: TimeInterval = 30,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.store = store
        self.refreshLeeway = refreshLeeway
        self.now = now
        var loaded: StoredTokens?
        do {
            loaded = try store.load()
        } catch {
            loaded = nil
            self.lastStorageError = error as? TokenClientError ?? .storage(String(describing: error))
        }
        self.tokens = loaded
        self.state = loaded.map { .signedIn($0.user) } ?? .signedOut
    }

    deinit {
        for continuation in observers.values { continuation.finish() }
    }

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

    /// Signs in with the bearer strategy, stores the tokens and publishes ``SessionState/signedIn(_:)``.
    /// - Returns: the signed-in user.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `invalid_credentials`, 429
    ///   `too_many_requests`…), ``TokenClientError/transport(_:)``, ``TokenClientError/invalidResponse``.
    @discardableResult
    public func login(email: String, password: String) async throws -> User {
        var request = makeRequest("POST", "auth/login", body: LoginRequest(email: email, password: password))
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let (data, response) = try await WireCoding.exchange(transport, request)
        let answer = try WireCoding.decodeSuccess(TokenResponse.self, data: data, response: response)
        let received = try storedTokens(from: answer)
        refreshInFlight = nil
        replaceTokens(received)
        return answer.user
    }

    /// A usable access token, refreshing first when it is known to expire within the leeway. For requests
    /// the session cannot send itself (e.g. a WebSocket upgrade).
    /// - Throws: ``TokenClientError/signedOut`` and whatever a refresh throws.
    public func accessToken() async throws -> String {
        try await usableTokens().accessToken
    }

    /// Sends `request` with `Authorization: Bearer <access token>`.
    ///
    /// Refreshes first when the token is known to have expired. On a 401 it obtains a newer token (one
    /// shared refresh, or the token another caller already got) and retries **once**; any other status is
    /// returned as is. The request body is re-sent on the retry.
    /// - Throws: ``TokenClientError/server(status:body:)`` when the retry is also refused (401),
    ///   ``TokenClientError/signedOut`` when there is no session or the refresh was refused,
    ///   ``TokenClientError/transport(_:)``.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let first = try await usableTokens()
        let (data, response) = try await WireCoding.exchange(transport, authorized(request, first.accessToken))
        guard response.statusCode == 401 else { return (data, response) }
        let renewed = try await renewedTokens(replacing: first.accessToken)
        let retry = try await WireCoding.exchange(transport, authorized(request, renewed.accessToken))
        guard retry.1.statusCode != 401 else {
            throw TokenClientError.server(status: 401, body: WireCoding.errorBody(retry.0))
        }
        return retry
    }

    func authorized(_ request: URLRequest, _ accessToken: String) -> URLRequest {
        var request = request
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: HeaderName.authorization)
        return request
    }

    func storedTokens(from answer: TokenResponse) throws -> StoredTokens {
        guard let access = answer.accessToken, let refresh = answer.refreshToken, !access.isEmpty, !refresh.isEmpty
        else { throw TokenClientError.invalidResponse }
        let expiresAt = now().addingTimeInterval(TimeInterval(answer.expiresIn))
        return StoredTokens(
            accessToken: access, refreshToken: refresh, accessTokenExpiresAt: expiresAt, user: answer.user)
    }

    /// Holds and persists `new`, and publishes ``SessionState/signedIn(_:)``.
    func replaceTokens(_ new: StoredTokens) {
        tokens = new
        do {
            try store.save(new)
        } catch {
            lastStorageError = error as? TokenClientError ?? .storage(String(describing: error))
        }
        publish(.signedIn(new.user))
    }

    /// Forgets the tokens (memory and store) and publishes ``SessionState/signedOut``.
    func signOutLocally() {
        tokens = nil
        refreshInFlight = nil
        do {
            try store.clear()
        } catch {
            lastStorageError = error as? TokenClientError ?? .storage(String(describing: error))
        }
        publish(.signedOut)
    }

    func publish(_ new: SessionState) {
        guard new != state else { return }
        state = new
        for continuation in observers.values { continuation.yield(new) }
    }

    private func removeObserver(_ id: UInt64) {
        observers[id] = nil
    }
}
