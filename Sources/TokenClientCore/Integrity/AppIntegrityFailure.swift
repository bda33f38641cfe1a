public import AuthAPI

/// Why the app could not prove its integrity; thrown inside ``TokenClientError/integrity(_:)``.
///
/// What an app can show: ``unsupported`` (this device cannot attest: ask the user to update, or use another device),
/// ``refused(_:)`` and ``rejected(_:)`` (the server does not trust this copy of the app), ``unavailable(status:body:)``
/// (the server does not offer the exchange, or is busy: try later).
public enum AppIntegrityFailure: Error, Sendable, Equatable {
    /// The device cannot attest (App Attest unsupported: a simulator, an old device, a Mac without it).
    case unsupported
    /// The server refused an attestation, assertion or Play Integrity token (401 `integrity_invalid` at
    /// `/integrity/*`).
    case refused(ErrorBody?)
    /// A request was still refused for integrity after one renewal (401 `integrity_required` or
    /// `integrity_invalid` with `WWW-Authenticate: AppIntegrity`), or refused when it could not be replayed.
    case rejected(ErrorBody?)
    /// `/integrity/*` answered another error status: 404 (not configured), 429, 503, 400…
    case unavailable(status: Int, body: ErrorBody?)
    /// The platform's attestation service failed; the text describes why.
    case provider(String)
}
