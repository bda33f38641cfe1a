public import AuthAPI

/// Why the server refused an email-code request, for an app to show (``TokenClientError/emailFailure``).
public enum EmailFlowFailure: Sendable, Equatable {
    /// 400 `invalid_code`: the code is wrong, expired, used, or killed by five wrong tries; ask for a new one.
    case invalidCode
    /// 400 `weak_password`: the new password is one of the most common passwords.
    case weakPassword
    /// 401 `invalid_credentials`: the current password is wrong (or missing where the account has one).
    case wrongPassword
    /// 409 `email_taken`: another account has the new address.
    case emailTaken
    /// 403 `registration_closed`: a sign-in code for an unknown address while registration is off.
    case registrationClosed
    /// 429 `too_many_requests`: too many messages to this address or requests from this device; try later.
    case tooManyRequests
    /// 404 `not_found` at the sign-in code endpoints: the server does not offer sign-in codes.
    case signInCodesDisabled
    /// 503 `unavailable`: the server sends no email (or cannot now).
    case unavailable
}

extension TokenClientError {
    /// The email-flow refusal this error is, or nil for any other error (a transport failure, 400
    /// `invalid_request`…).
    public var emailFailure: EmailFlowFailure? {
        guard case .server(let status, let body) = self else { return nil }
        switch (status, body?.error) {
        case (400, .invalidCode?): return .invalidCode
        case (400, .weakPassword?): return .weakPassword
        case (401, .invalidCredentials?): return .wrongPassword
        case (409, .emailTaken?): return .emailTaken
        case (403, .registrationClosed?): return .registrationClosed
        case (429, _): return .tooManyRequests
        case (404, .notFound?): return .signInCodesDisabled
        case (503, _): return .unavailable
        default: return nil
        }
    }
}
