import AuthAPI
import FoundationEssentials
import HTTPServer
import Logging
import Store

/// Account deletion's endpoints (issue 33): `DELETE /auth/account` for the signed-in user, the `deletion` email
/// code (`POST /auth/account/deletion` and its confirm, JSON or form bodies) for a user without the app, and the
/// page at `GET /account/delete` that drives the code flow from a browser without JavaScript.
struct AccountEndpoints: Sendable {
    /// The email flows (code issue and redemption, send limits, the account machinery behind them).
    let email: EmailFlows
    let deletion: AccountDeletion
    /// `account.reauthenticationSeconds`: how recent the sign-in of a passwordless account's session must be.
    let reauthenticationSeconds: Int

    var auth: AuthService { email.auth }

    /// The `200 {"deleted":true}` of both deletions.
    static let deleted = HTTPResponse.json(bytes: AccountDeletedResponse().jsonBytes(), headers: .noStore)

    /// `DELETE /auth/account` (access token, bearer or cookie; in cookie mode with `X-CSRF-Token` like every
    /// unsafe cookie request) with `{"password"}`, `{}` or no body → `200 {"deleted": true}`.
    ///
    /// An account with a password needs it: missing or wrong is `401 reauthentication_required`, and a wrong one
    /// counts as a failed login (the per-account failure limit and `tokenvend_logins_total{result="failed"}`, as
    /// at `POST /auth/password/change`; 429 beyond the limit). An account without one needs a token whose
    /// `auth_time` is at most `account.reauthenticationSeconds` old (a token without `auth_time` is stale); a
    /// password sent for it is ignored. A cookie-mode caller's cookies are cleared.
    func deleteAccount(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let caller = try await email.signedIn(request, context, needsMail: false)
        let body = try AccountDeletionRequest(body: request)
        let user = try await email.account(caller.userID)
        let refused = ServiceError.reauthenticationRequired(maxAge: reauthenticationSeconds)
        if user.passwordHash != nil {
            guard let password = body.password else { throw refused }
            do {
                _ = try await auth.checkCurrentPassword(password, of: user)
            } catch ServiceError.invalidCredentials {
                throw refused
            }
        } else {
            guard isRecent(caller.authTime) else { throw refused }
        }
        do {
            _ = try await deletion.delete(userID: user.id, method: .selfService)
        } catch .notFound {
            // Deleted meanwhile (another request, the operator): the token's account is gone.
            throw ServiceError.invalidToken(presented: true)
        }
        var response = Self.deleted
        if caller.viaCookie {
            for cookie in CookieJar.clearingCookies() { response.headers.add(name: "Set-Cookie", value: cookie) }
        }
        return response
    }

    /// Whether a sign-in at `authTime` (Unix seconds) is within `account.reauthenticationSeconds` of now; a time
    /// ahead of the clock counts as now.
    func isRecent(_ authTime: Int64?) -> Bool {
        guard let authTime else { return false }
        let now = Int64(auth.now().timeIntervalSince1970.rounded(.down))
        return now - authTime <= Int64(reauthenticationSeconds)
    }
}

extension AccountDeletedResponse {
    /// `{"deleted":true}`, as `JSONEncoder` writes it.
    func jsonBytes() -> [UInt8] {
        Array(#"{"deleted":\#(deleted)}"#.utf8)
    }
}
