import AuthAPI
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Refresh with single flight.
extension AuthSession {
    /// Exchanges the refresh token for a new pair now (joining a refresh already in flight).
    /// - Throws: ``TokenClientError/signedOut`` when there is no session or the server refused the refresh
    ///   token (the session is then cleared); ``TokenClientError/server(status:body:)`` and
    ///   ``TokenClientError/transport(_:)`` for other failures, which keep the session.
    public func refresh() async throws {
        if let inFlight = refreshInFlight {
            _ = try await inFlight.task.value
            return
        }
        guard let current = tokens else { throw TokenClientError.signedOut }
        _ = try await startRefresh(from: current)
    }

    /// Tokens fit to send now: waits for a refresh in flight, refreshes when the access token expires
    /// within the leeway (keeping the old token when that early refresh fails before it has expired).
    func usableTokens() async throws -> StoredTokens {
        if let inFlight = refreshInFlight { return try await inFlight.task.value }
        guard let current = tokens else { throw TokenClientError.signedOut }
        guard let expiresAt = current.accessTokenExpiresAt, now() >= expiresAt.addingTimeInterval(-refreshLeeway)
        else { return current }
        do {
            return try await startRefresh(from: current)
        } catch TokenClientError.signedOut {
            throw TokenClientError.signedOut
        } catch {
            // An early refresh failed (offline, 503…): the token is still good until it actually expires.
            if now() < expiresAt, let tokens, tokens.accessToken == current.accessToken { return tokens }
            throw error
        }
    }

    /// Tokens newer than `stale` (an access token the server refused): the current ones when they already
    /// differ, else the result of the refresh in flight or of a new one.
    func renewedTokens(replacing stale: String) async throws -> StoredTokens {
        if let inFlight = refreshInFlight { return try await inFlight.task.value }
        guard let current = tokens else { throw TokenClientError.signedOut }
        if current.accessToken != stale { return current }
        return try await startRefresh(from: current)
    }

    /// Starts the one refresh and waits for it. Must be called with no refresh in flight.
    private func startRefresh(from current: StoredTokens) async throws -> StoredTokens {
        nextID += 1
        let id = nextID
        // The task needs this actor to run, so `refreshInFlight` is set before `performRefresh` starts.
        let task = Task { try await self.performRefresh(from: current, id: id) }
        refreshInFlight = (id, task)
        publish(.refreshing)
        return try await task.value
    }

    private func performRefresh(from presented: StoredTokens, id: UInt64) async throws -> StoredTokens {
        defer {
            if refreshInFlight?.id == id { refreshInFlight = nil }
        }
        var request = makeRequest("POST", "auth/refresh", body: RefreshRequest(refreshToken: presented.refreshToken))
        request.setValue(AuthStrategy.bearer.rawValue, forHTTPHeaderField: HeaderName.authStrategy)
        let outcome: Result<(Data, HTTPURLResponse), any Error>
        do {
            outcome = .success(try await WireCoding.exchange(transport, request))
        } catch {
            outcome = .failure(error)
        }
        // Signed out or signed in again while the refresh was on the wire: its answer is stale.
        guard let current = tokens, current.refreshToken == presented.refreshToken else {
            if let current = tokens { return current }
            throw TokenClientError.signedOut
        }
        do {
            let (data, response) = try outcome.get()
            // The refresh endpoint answers 401 only with `invalid_grant`: the session is over.
            if response.statusCode == 401 {
                signOutLocally()
                throw TokenClientError.signedOut
            }
            let answer = try WireCoding.decodeSuccess(TokenResponse.self, data: data, response: response)
            let renewed = try storedTokens(from: answer)
            replaceTokens(renewed)
            return renewed
        } catch {
            if tokens != nil { publish(.signedIn(current.user)) }
            throw error
        }
    }
}
