/// Why a vend request is refused; nothing is signed in any of these cases.
///
/// Payloads are parameter names chosen by the configuration and reasons chosen by this module; never a value
/// from the body.
public enum VendorRequestError: Error, Sendable, Equatable {
    /// 400 `invalid_request`: the body has a member the template does not declare; `reason` explains members
    /// refused on purpose (LiveKit's `participant_identity`: "the identity is the signed-in user").
    case undeclaredParameter(String, reason: String?)
    /// 400 `invalid_request`: a required parameter is absent (or `null`).
    case missingParameter(String)
    /// 400 `invalid_request`: wrong JSON type, pattern, enum, length or range.
    case invalidParameter(String, reason: String)
    /// 403 `insufficient_scope`: customer ids that are not the caller's, no customer ids at all, or a value the
    /// caller's role may not have.
    case notPermitted(String)
    /// 503 `unavailable`: the vendor is configured without keys.
    case unavailable
}
