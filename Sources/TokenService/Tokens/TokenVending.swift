import AuthAPI
import Foundation
import HTTPServer
import Logging

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
    func streamToken(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let now = now()
        let (caller, owned) = try authenticator.authenticateWithCustomerIDs(
            request, now: now, emailAsRegistered: emailCustomerID)
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
    func mossToken(_ request: HTTPRequest, _ context: RequestContext) throws -> HandlerResult {
        let caller = try authenticator.authenticate(request, now: now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        guard let moss else { throw MossError.notConfigured }
        if let cached = moss.cachedToken() { return .response(mossResponse(cached)) }
        return .async { try await mossResponse(moss.token()) }
    }

    private func mossResponse(_ vended: VendedToken) -> HTTPResponse {
        metrics.tokensIssued.increment(.moss)
        return .json(bytes: vended.jsonBytes(), headers: .noStore)
    }
}
