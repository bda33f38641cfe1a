/// A route family whose app-integrity policy `integrity.routes.<route>` sets (API.md "App integrity").
public enum IntegrityRoute: String, Sendable, Hashable, CaseIterable {
    /// `POST /auth/register`.
    case register
    /// Every sign-in with a credential the user holds: `POST /auth/login`, `POST /auth/email/code/confirm` (a
    /// sign-in code) and `POST /auth/password/reset/confirm`.
    case login
    /// Sign-in through a third party: `POST /auth/idtoken` and `POST /auth/token` (the browser flow's code).
    case idtoken
    /// `POST /auth/refresh`.
    case refresh
    /// `POST /vend/{vendor}` (`vendors.<name>.integrity` overrides it per vendor).
    case vend
    /// `POST /stream-token`.
    case stream
    /// `GET /moss-token`.
    case moss
}

/// What a route does with app-integrity tokens.
public enum IntegrityMode: String, Sendable, Hashable, CaseIterable {
    /// Not checked (the default).
    case off
    /// Checked and counted; the request is served whatever the result.
    case report
    /// Checked; without a valid token the answer is `401 integrity_required` (none) or `401 integrity_invalid`.
    case require
}
