public import AuthAPI

/// Why the server refused to delete an account, for an app to act on (``TokenClientError/accountDeletionFailure``).
public enum AccountDeletionFailure: Sendable, Equatable {
    /// 401 `reauthentication_required` (``AuthSession/deleteAccount(password:)``): the password is missing or wrong,
    /// or, for an account without a password, the session signed in longer ago than the server allows
    /// (`account.reauthenticationSeconds`, 5 minutes by default). The session stays signed in: ask for the
    /// password, or sign in again, then retry.
    case reauthenticationRequired
    /// 400 `invalid_code` (``AuthSession/confirmAccountDeletion(email:code:)``): the code is wrong, expired, used,
    /// or killed by five wrong tries; ask for a new one.
    case invalidCode
    /// 429 `too_many_requests`: too many attempts (or messages to this address); try later.
    case tooManyRequests
    /// 503 `unavailable`: the server sends no email (the email-code path), or cannot now.
    case unavailable
}

extension TokenClientError {
    /// The account-deletion refusal this error is, or nil for any other error (a transport failure, 400
    /// `invalid_request`, ``TokenClientError/signedOut``…).
    public var accountDeletionFailure: AccountDeletionFailure? {
        guard case .server(let status, let body) = self else { return nil }
        switch (status, body?.error) {
        case (401, .reauthenticationRequired?): return .reauthenticationRequired
        case (400, .invalidCode?): return .invalidCode
        case (429, _): return .tooManyRequests
        case (503, _): return .unavailable
        default: return nil
        }
    }
}
