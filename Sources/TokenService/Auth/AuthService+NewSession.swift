import FoundationEssentials
import HTTPServer
import Store

extension AuthService {
    /// A new session for `user`, from `request`'s user agent and client address, bound to the DPoP key
    /// `dpopThumbprint` when not nil (``DPoPGate/bindingForNewSession(_:strategy:now:)``), revoking the user's
    /// least recently used live sessions beyond `session.maxPerUser` (counted as `session_cap`): what a login, a
    /// password reset and an email-code sign-in start.
    /// - Throws: a 503 `ServiceError` when the store cannot take it, else the store's error.
    func openSession(for user: Store.User, _ request: HTTPRequest, dpopThumbprint: String?) async throws -> Session {
        let address = request.clientAddress?.description ?? request.remoteAddress
        do {
            let created = try await sessions.create(
                userID: user.id, userAgent: request.headers["User-Agent"].map { String($0.prefix(256)) },
                ip: address, now: now(), refreshTTL: limits.refreshTTL,
                maxLifetime: limits.sessionMaxLifetime, maxPerUser: limits.maxSessionsPerUser,
                dpopThumbprint: dpopThumbprint)
            if created.revoked > 0 { metrics.sessionsRevoked.increment(.sessionCap, by: created.revoked) }
            return created.session
        } catch {
            throw Self.mapStore(error)
        }
    }
}
