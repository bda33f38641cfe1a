import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Refresh: single flight, under the store's lock, with a short timeout, one immediate retry and a backoff.
extension AuthSession {
    /// Exchanges the refresh token for a new pair now (joining a refresh already in flight), unless the store
    /// already holds a newer pair another process got.
    /// - Throws: ``TokenClientError/signedOut`` when there is no session or the server refused the refresh
    ///   token (the session is then cleared); ``TokenClientError/storageLocked``;
    ///   ``TokenClientError/server(status:body:)`` and ``TokenClientError/transport(_:)`` for other failures,
    ///   which keep the session (during a backoff, the last of them, without a request).
    public func refresh() async throws {
        try prepare()
        if let inFlight = refreshInFlight {
            _ = try await inFlight.task.value
            return
        }
        guard let current = tokens else { throw TokenClientError.signedOut }
        _ = try await startRefresh(from: current, replacing: nil)
    }

    /// Tokens fit to send now: waits for a refresh in flight, refreshes when the access token expires
    /// within the leeway (keeping the old token when that early refresh fails before it has expired).
    func usableTokens() async throws -> StoredTokens {
        if let inFlight = refreshInFlight { return try await inFlight.task.value }
        guard let current = tokens else { throw TokenClientError.signedOut }
        guard needsRefresh(current) else { return current }
        do {
            return try await startRefresh(from: current, replacing: nil)
        } catch TokenClientError.signedOut {
            throw TokenClientError.signedOut
        } catch {
            // An early refresh failed (offline, 503…): the token is still good until it actually expires.
            if let expiresAt = current.accessTokenExpiresAt, now() < expiresAt, let tokens,
                tokens.accessToken == current.accessToken
            {
                return tokens
            }
            throw error
        }
    }

    /// Tokens newer than `stale` (an access token the server refused): the current ones when they already
    /// differ, else the result of the refresh in flight or of a new one.
    func renewedTokens(replacing stale: String) async throws -> StoredTokens {
        if let inFlight = refreshInFlight { return try await inFlight.task.value }
        guard let current = tokens else { throw TokenClientError.signedOut }
        if current.accessToken != stale { return current }
        return try await startRefresh(from: current, replacing: stale)
    }

    /// True when `tokens`' access token expires within the leeway.
    func needsRefresh(_ tokens: StoredTokens) -> Bool {
        guard let expiresAt = tokens.accessTokenExpiresAt else { return false }
        return now() >= expiresAt.addingTimeInterval(-refreshLeeway)
    }

    /// Starts the one refresh and waits for it. Must be called with no refresh in flight. `stale` is the access
    /// token a server refused, if that is why (a pair adopted from the store then serves only when it differs).
    private func startRefresh(from current: StoredTokens, replacing stale: String?) async throws -> StoredTokens {
        nextID += 1
        let id = nextID
        // The task needs this actor to run, so `refreshInFlight` is set before `performRefresh` starts.
        let task = Task { try await self.performRefresh(from: current, replacing: stale, id: id) }
        refreshInFlight = (id, task)
        publish(.refreshing)
        return try await task.value
    }

    private func performRefresh(from start: StoredTokens, replacing stale: String?, id: UInt64) async throws
        -> StoredTokens
    {
        defer {
            if refreshInFlight?.id == id { refreshInFlight = nil }
        }
        let startedIn = generation
        // Read → refresh → write under the store's lock, so no other process presents the same refresh token.
        let lock: TokenStoreLock
        do {
            lock = try await store.lock()
        } catch {
            restoreState()
            throw TokenClientError.storage(from: error)
        }
        defer { lock.release() }
        guard generation == startedIn, let held = tokens else { return try currentOrSignedOut() }
        var presented = held.refreshToken == start.refreshToken ? start : held
        if let adopted = adoptNewerPair(than: presented) {
            // Newer than the pair this refresh started from: served while its access token has not expired (the
            // leeway is for starting refreshes early, not for refusing a pair another process just got).
            if !hasPassed(adopted.accessTokenExpiresAt), adopted.accessToken != stale { return adopted }
            presented = adopted
        }
        if let backoff, now() < backoff.until {
            restoreState()
            throw backoff.error
        }
        let sentIn = generation
        var outcome = await exchangeRefresh(presented.refreshToken)
        if outcome.isTransient {
            // A lost answer or a 5xx: the server may have rotated. Asking again at once, inside its grace window,
            // converges on the same new pair instead of presenting a spent token later.
            outcome = await exchangeRefresh(presented.refreshToken)
        }
        // Signed out, or signed in again, while the refresh was on the wire: its answer is not ours.
        guard generation == sentIn, tokens != nil else { return try currentOrSignedOut() }
        switch outcome {
        case .renewed(let renewed):
            backoff = nil
            replaceTokens(renewed)
            emit(.refreshed)
            return renewed
        case .refused:
            // Another process may have refreshed with this token first: its pair is in the store.
            if let adopted = adoptNewerPair(than: presented) { return adopted }
            signOutLocally(reason: hasPassed(presented.refreshTokenExpiresAt) ? .expired : .revoked)
            throw TokenClientError.signedOut
        case .failed(let failure, let retryAfter, let counts):
            if counts { backoff = .after(backoff, error: failure, retryAfter: retryAfter, now: now()) }
            restoreState()
            throw failure
        }
    }

    /// After a refresh that came to nothing: the held tokens, or ``TokenClientError/signedOut``.
    private func currentOrSignedOut() throws -> StoredTokens {
        if let tokens { return tokens }
        throw TokenClientError.signedOut
    }

    /// Leaves ``SessionState/refreshing`` for the state the held tokens give.
    func restoreState() {
        if let tokens { publish(.signedIn(tokens.user)) }
    }

    /// The store's pair when it differs from `presented` (another process rotated, or signed in): adopted as the
    /// session's own, announced as ``SessionEvent/refreshed`` (same user) or ``SessionEvent/signedIn(_:)``.
    /// `nil` when the store holds `presented`, nothing, or cannot be read.
    /// Never while a save of ours is pending: the store then holds an older pair, not a newer one.
    func adoptNewerPair(than presented: StoredTokens) -> StoredTokens? {
        guard pendingSave == nil, let stored = try? store.load(), stored.refreshToken != presented.refreshToken
        else { return nil }
        if stored.user?.id != presented.user?.id {
            adoptSignIn(stored)
        } else {
            hold(stored)
            publish(.signedIn(stored.user))
            emit(.refreshed)
        }
        return stored
    }

    /// One `POST /auth/refresh`, within ``refreshTimeout``, classified.
    private func exchangeRefresh(_ refreshToken: String) async -> RefreshOutcome {
        var request = makeRequest("POST", "auth/refresh", body: RefreshRequest(refreshToken: refreshToken))
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let data: Data
        let response: TransportResponse
        do {
            (data, response) = try await exchangeWithinRefreshTimeout(request)
        } catch let error as TokenClientError {
            return .failed(error, retryAfter: nil, counts: true)
        } catch {
            return .failed(.transport(String(describing: error)), retryAfter: nil, counts: true)
        }
        let body = WireCoding.errorBody(data)
        if body?.error == .invalidGrant { return .refused }
        guard (200..<300).contains(response.statusCode) else {
            let retryAfter = WireCoding.retryAfterSeconds(response)
            let status = response.statusCode
            // 5xx and 429 are the server's trouble: back off. Another 4xx (a proxy's 401…) is thrown as is.
            return .failed(
                .server(status: status, body: body), retryAfter: retryAfter, counts: status >= 500 || status == 429)
        }
        do {
            let answer = try JSONDecoder().decode(TokenResponse.self, from: data)
            return .renewed(try storedTokens(from: answer))
        } catch {
            return .failed(.invalidResponse, retryAfter: nil, counts: true)
        }
    }
}

/// What one refresh request came to.
enum RefreshOutcome: Sendable {
    /// A new pair.
    case renewed(StoredTokens)
    /// `invalid_grant`: the refresh token is no good.
    case refused
    /// Anything else; `counts` when it is the server's or the network's trouble (backoff).
    case failed(TokenClientError, retryAfter: TimeInterval?, counts: Bool)

    /// A lost answer, a timeout or a 5xx: worth one immediate retry.
    var isTransient: Bool {
        guard case .failed(let error, _, _) = self else { return false }
        switch error {
        case .transport: return true
        case .server(let status, _): return status >= 500
        default: return false
        }
    }
}
