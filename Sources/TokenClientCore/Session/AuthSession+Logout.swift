public import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Logout that never hangs, and logouts the server missed.
extension AuthSession {
    /// Signs out (`POST /auth/logout?scope=…`).
    ///
    /// For `.local` and `.global` the tokens are cleared, ``SessionState/signedOut`` and
    /// ``SessionEvent/signedOut(reason:)`` (``SignOutReason/userAction``) published **before** the server is
    /// told, so the app is signed out even when this throws. A refresh in flight is not waited for (its answer is
    /// dropped). The server is given ``refreshTimeout``; a logout it did not get (no answer, 5xx, 429) is kept and
    /// sent again before the next login and by ``retryPendingLogouts()``. `.others` keeps this session.
    /// Without a session, `.local` and `.global` return at once (a locked store is cleared).
    /// - Throws: ``TokenClientError/server(status:body:)`` or ``TokenClientError/transport(_:)`` when the
    ///   server could not be told; ``TokenClientError/signedOut`` for `.others` without a session.
    public func logout(scope: LogoutScope = .local) async throws {
        if state == .locked { _ = tryUnlock() }
        guard let current = tokens else {
            if scope == .others { throw TokenClientError.signedOut }
            if state == .locked {
                // The user asked to sign out of a session we cannot read: forget it rather than keep it.
                signOutLocally(reason: .userAction)
            }
            return
        }
        if scope == .others {
            let (data, response) = try await send(logoutRequest(refreshToken: current.refreshToken, scope: scope))
            try WireCoding.requireSuccess(data: data, response: response)
            return
        }
        let key = signOutLocally(reason: .userAction)
        // The refresh token in the body identifies the session; an access token known to be expired would only
        // earn a 401. The DPoP key, deleted from its store, still signs this logout.
        let logout = PendingLogout(
            refreshToken: current.refreshToken,
            accessToken: hasPassed(current.accessTokenExpiresAt) ? nil : current.accessToken, scope: scope,
            tokenType: current.tokenType, dpopKey: key)
        try await tell(logout)
    }

    /// Sends the logouts the server has not acknowledged yet; the ones that fail again stay for later.
    public func retryPendingLogouts() async {
        let pending = pendingLogouts
        pendingLogouts = []
        lastPendingLogoutAttempt = now()
        for logout in pending { try? await tell(logout) }
    }

    /// Tells the server of `logout` within ``refreshTimeout``; keeps it in ``pendingLogouts`` when the server did
    /// not get it (no answer, 5xx, 429). A 401 means the session is already over: nothing to keep. Signed with the
    /// logout's own DPoP key, if it had one (the session's is gone).
    private func tell(_ logout: PendingLogout) async throws {
        var request = logoutRequest(refreshToken: logout.refreshToken, scope: logout.scope)
        if let access = logout.accessToken {
            let tokens = StoredTokens(
                accessToken: access, refreshToken: logout.refreshToken, tokenType: logout.tokenType)
            request = authorized(request, tokens)
        }
        let signing = logout.dpopKey.map { DPoPTransport.Signing.pinned($0) } ?? .unsigned
        do {
            let (data, response) = try await DPoPTransport.$signing.withValue(signing) {
                try await exchangeWithinRefreshTimeout(request)
            }
            if response.statusCode == 401 { return }
            if response.statusCode >= 500 || response.statusCode == 429 { keep(logout) }
            try WireCoding.requireSuccess(data: data, response: response)
        } catch let error as CancellationError {
            keep(logout)
            throw error
        } catch let error as TokenClientError {
            if case .transport = error { keep(logout) }
            throw error
        }
    }

    private func keep(_ logout: PendingLogout) {
        lastPendingLogoutAttempt = now()
        if !pendingLogouts.contains(logout) { pendingLogouts.append(logout) }
    }

    private func logoutRequest(refreshToken: String, scope: LogoutScope) -> TransportRequest {
        let path = "auth/logout"
        var request = makeRequest("POST", path, body: RefreshRequest(refreshToken: refreshToken))
        request.url = baseURL.appending(path: path).appending(queryItems: [
            URLQueryItem(name: "scope", value: scope.rawValue)
        ])
        return request
    }
}
