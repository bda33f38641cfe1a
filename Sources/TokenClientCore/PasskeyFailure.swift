import AuthAPI

/// Why the server refused a passkey call, for an app to act on (``TokenClientError/passkeyFailure``).
public enum PasskeyFailure: Sendable, Equatable {
    /// 401 `invalid_credential`: the passkey could not be verified (an unknown or deleted passkey, a spent or
    /// expired challenge, a passkey registered elsewhere, a disabled account…). The server does not say which;
    /// start the ceremony again, or offer another way in.
    case invalidCredential
    /// 409 `last_sign_in_method` (``AuthSession/deletePasskey(id:)``): the passkey is the account's only way to
    /// sign in; add a password or another passkey first.
    case lastSignInMethod
    /// 403 `registration_closed` (sign-up): the server creates no new accounts.
    case registrationClosed
    /// 409 `email_taken` (sign-up): another account has the address; sign in to it instead.
    case emailTaken
    /// 404 `not_found`: the server offers no passkeys (`passkeys.rpId` unset), or (rename, delete) the passkey is
    /// not one of the account's.
    case notFound
    /// 429 `too_many_requests`: too many ceremonies from this client address; try later.
    case tooManyRequests
}

extension TokenClientError {
    /// The passkey refusal this error is, or nil for any other error (a transport failure, 400 `invalid_request`
    /// for a malformed credential or name, ``TokenClientError/signedOut``…).
    public var passkeyFailure: PasskeyFailure? {
        guard case .server(let status, let body) = self else { return nil }
        switch (status, body?.error) {
        case (401, .invalidCredential?): return .invalidCredential
        case (409, .lastSignInMethod?): return .lastSignInMethod
        case (403, .registrationClosed?): return .registrationClosed
        case (409, .emailTaken?): return .emailTaken
        case (404, .notFound?): return .notFound
        case (429, _): return .tooManyRequests
        default: return nil
        }
    }
}
