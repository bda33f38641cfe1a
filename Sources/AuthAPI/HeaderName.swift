/// Names of the HTTP headers the API defines or relies on.
public enum HeaderName {
    /// Selects bearer or cookie delivery of tokens on `/auth/login` and `/auth/refresh`.
    public static let authStrategy = "X-Auth-Strategy"
    /// Echo of the `__Host-csrf_token` cookie, required on unsafe methods authenticated by cookie.
    public static let csrfToken = "X-CSRF-Token"
    /// Request correlation id; echoed by the server or generated.
    public static let requestId = "X-Request-Id"
    /// Carries `Bearer <access token>`.
    public static let authorization = "Authorization"
    /// Seconds to wait after a 429 or 503.
    public static let retryAfter = "Retry-After"
    /// Present on every 401 (RFC 6750 §3).
    public static let wwwAuthenticate = "WWW-Authenticate"
    /// tokenvend's own integrity token (`POST /integrity/apple/attest`, `/apple/assert`, `/android`), or
    /// `debug:<secret>` when `integrity.allowDebugTokens` is on; checked where `integrity.routes.<route>` is not `off`.
    public static let appIntegrity = "X-App-Integrity"
    /// A Firebase App Check token, accepted as it is where an `X-App-Integrity` token would be.
    public static let firebaseAppCheck = "X-Firebase-AppCheck"
    /// A DPoP proof (RFC 9449): a `dpop+jwt` JWS signed by the device's key, on every request of a bound session
    /// and on the token endpoints to bind one.
    public static let dpop = "DPoP"
    /// The server's current DPoP nonce (RFC 9449 §8), on `use_dpop_nonce` answers and on token responses while
    /// `dpop.requireNonce` is on.
    public static let dpopNonce = "DPoP-Nonce"
}
