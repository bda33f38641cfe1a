import AuthAPI
import Foundation
import TokenClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `POST /auth/refresh` of the fake, with the server's reuse grace window and the failures a mobile network adds:
/// an answer lost after the server rotated, 5xx outages with `Retry-After`.
extension FakeAuthServer {
    /// The refresh answer, or a thrown transport error when the answer is to be lost after rotating.
    func refreshAnswer(_ request: Recorded) throws -> (Int, Data, [String: String]) {
        guard let body = request.body, let refresh = try? JSONDecoder().decode(RefreshRequest.self, from: body)
        else {
            let (status, data) = Self.error(400, .invalidRequest)
            return (status, data, [:])
        }
        let now = clock.now
        let (status, data, headers, lose) = state.withLock { state in
            if state.refreshOutages > 0 {
                state.refreshOutages -= 1
                let (status, data) = Self.error(state.refreshOutageStatus, .unavailable)
                let headers = state.refreshRetryAfter.map { ["Retry-After": String($0)] } ?? [:]
                return (status, data, headers, false)
            }
            if let failure = state.refreshFailure {
                let (status, data) = Self.error(failure.status, failure.code)
                return (status, data, [:], false)
            }
            let (status, data) = rotate(&state, presented: refresh.refreshToken, now: now)
            let lose = status == 200 && state.refreshAnswersToLose > 0
            if lose { state.refreshAnswersToLose -= 1 }
            return (status, data, [:], lose)
        }
        if lose { throw URLError(.networkConnectionLost) }
        return (status, data, headers)
    }

    /// Rotation like the server's: the live token rotates; its parent within the grace window converges on the
    /// live pair; any other spent token revokes every token of the session; anything else is `invalid_grant`.
    private func rotate(_ state: inout State, presented: String, now: Date) -> (Int, Data) {
        let owner = state.liveAccess.flatMap { state.accessOwners[$0] } ?? Self.user
        if presented == state.liveRefresh {
            state.parentRefresh = presented
            state.rotatedAt = now
            state.spentRefresh.insert(presented)
            return (200, Self.json(issuePair(&state, user: owner)))
        }
        if presented == state.parentRefresh, let rotatedAt = state.rotatedAt, state.graceSeconds > 0,
            now.timeIntervalSince(rotatedAt) <= state.graceSeconds, let live = state.liveRefresh,
            let access = state.liveAccess
        {
            return (200, Self.json(Self.pair(access: access, refresh: live, user: owner, state: state, now: now)))
        }
        if state.spentRefresh.contains(presented) {
            state.reuseDetected += 1
            state.validAccess.removeAll()
            state.liveRefresh = nil
            state.liveAccess = nil
            state.parentRefresh = nil
        }
        return Self.error(401, .invalidGrant)
    }

    /// A bearer answer for a pair, with its expiry times: `expiresAt` = now + `expiresIn`, `refreshExpiresAt` =
    /// now + ``State/refreshExpiresIn`` (Unix seconds on the fake's clock).
    static func pair(access: String, refresh: String, user: User, state: State, now: Date) -> TokenResponse {
        let seconds = Int64(now.timeIntervalSince1970)
        return .bearer(
            accessToken: access, refreshToken: refresh, expiresIn: state.accessExpiresIn,
            expiresAt: seconds + Int64(state.accessExpiresIn),
            refreshExpiresAt: seconds + Int64(state.refreshExpiresIn),
            user: user)
    }
}

extension FakeAuthServer {
    /// Whether `path` is one of `paths` (`"*"` matches every path).
    static func matches(_ paths: Set<String>, _ path: String) -> Bool {
        paths.contains("*") || paths.contains(path)
    }

    /// A 401 from something in front of the server (a proxy, a captive portal): HTML, no `WWW-Authenticate`.
    static func proxyUnauthorized(_ url: URL) -> (Data, TransportResponse) {
        let html = "<html><body><h1>401 Authorization Required</h1><p>Sign in to the network.</p></body></html>"
        let response = TransportResponse(
            statusCode: 401, headerFields: ["Content-Type": "text/html; charset=utf-8"], url: url)
        return (Data(html.utf8), response)
    }

    /// The server's `WWW-Authenticate` for one of its own 401 bodies (ServiceError+HTTP.swift): the
    /// `invalid_token` challenge when a token was presented and refused, the bare realm for the other 401 codes.
    static func challenge(_ body: Data, presented: Bool) -> String? {
        guard let error = try? JSONDecoder().decode(ErrorBody.self, from: body) else { return nil }
        if error.error == .invalidToken, presented { return #"Bearer realm="tokenvend", error="invalid_token""# }
        if error.error == .reauthenticationRequired {
            return #"Bearer realm="tokenvend", error="insufficient_user_authentication", max_age=300"#
        }
        if error.error == .invalidCredential { return #"WebAuthn realm="tokenvend""# }
        let bare: Set<ErrorCode> = [.invalidToken, .invalidCredentials, .invalidGrant]
        return bare.contains(error.error) ? #"Bearer realm="tokenvend""# : nil
    }
}
