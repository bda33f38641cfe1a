import AuthAPI
import Foundation
import HTTPServer
import Logging
import Store

/// The two endpoints tokenvend exists for: `GET /moss-token` and `POST /stream-token` (API.md "Token vending").
struct TokenVending: Sendable {
    let authenticator: Authenticator
    let stream: StreamTokenIssuer?
    let moss: MossTokenCache?
    /// `stream.emailCustomerId`: a verified email is the `registered` id instead of the user id.
    let emailCustomerID: Bool
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    /// `POST /stream-token`, optional body `{"customerIds": {...}}` → `{"token", "expiresIn"}`.
    ///
    /// `ids` is the requested map or, when absent, all of the caller's customer ids (`registered` is the user
    /// id, or the verified email with `stream.emailCustomerId`, unless an operator set it); a requested pair
    /// that is not the caller's is 403 `insufficient_scope` and nothing is signed.
    ///
    /// Runs inline on the event loop when the store has the session and the ids at hand (SQLite: one read on a
    /// reader connection), else reads them in a `Task` (PostgreSQL).
    func streamToken(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        let now = now()
        let immediate = try authenticator.authenticateWithCustomerIDsImmediately(
            request, now: now, emailAsRegistered: emailCustomerID)
        switch immediate {
        case .value(let read):
            return .response(try streamToken(request, context, read, now: now))
        case .mustWait:
            let authenticator = self.authenticator
            let emailCustomerID = self.emailCustomerID
            return .async {
                let read = try await authenticator.authenticateWithCustomerIDs(
                    request, now: now, emailAsRegistered: emailCustomerID)
                return try streamToken(request, context, read, now: now)
            }
        }
    }

    /// Signs the stream token for an authenticated caller whose customer ids are `read.customerIDs`.
    private func streamToken(
        _ request: HTTPRequest, _ context: RequestContext, _ read: CallerWithCustomerIDs, now: Date
    ) throws -> HTTPResponse {
        let caller = read.caller
        let owned = read.customerIDs
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        let requested = try StreamTokenRequest(body: request).customerIds
        guard let stream else {
            throw ServiceError.unavailable("Stream tokens are not configured.", retryAfter: 3600)
        }
        let ids = requested ?? owned
        guard !ids.isEmpty, ids.allSatisfy({ owned[$0.key] == $0.value }) else {
            throw ServiceError.insufficientScope
        }
        let issued = try stream.issue(ids: ids, now: now)
        metrics.tokensIssued.increment(.stream)
        return .json(
            bytes: VendedToken(token: issued.token, expiresIn: issued.expiresIn).jsonBytes(), headers: .noStore)
    }

    /// `GET /moss-token` → `{"token", "expiresIn"}` from the shared project-token cache.
    ///
    /// Runs inline on the event loop: a cached token is answered at once; only a cache miss (the first call,
    /// or a token past its refresh point) waits for Moss in a task.
    /// The session check, like `me`, runs inline when the store has the session at hand, else in the task.
    func mossToken(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        let now = now()
        switch try authenticator.authenticateImmediately(request, now: now) {
        case .value(let caller):
            context.accessLogMetadata["user.id"] = .string(caller.userID)
            guard let moss else { throw MossError.notConfigured }
            if let cached = moss.cachedToken() { return .response(mossResponse(cached)) }
            return .async { try await mossResponse(moss.token()) }
        case .mustWait:
            let authenticator = self.authenticator
            return .async {
                let caller = try await authenticator.authenticate(request, now: now)
                context.accessLogMetadata["user.id"] = .string(caller.userID)
                guard let moss else { throw MossError.notConfigured }
                if let cached = moss.cachedToken() { return mossResponse(cached) }
                return try await mossResponse(moss.token())
            }
        }
    }

    private func mossResponse(_ vended: VendedToken) -> HTTPResponse {
        metrics.tokensIssued.increment(.moss)
        return .json(bytes: vended.jsonBytes(), headers: .noStore)
    }
}
