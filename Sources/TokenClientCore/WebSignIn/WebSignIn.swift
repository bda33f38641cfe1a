#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Sign-in through the provider's web page (the browser flow: OAuth 2.0 authorization code with PKCE, RFC 7636
/// and RFC 8252), for providers without a native SDK (GitHub, GitLab, Google on the web…).
///
/// ``start()`` makes a fresh PKCE verifier and `state` and the URL of `GET /auth/oauth/{provider}`; the app opens
/// it in a browser (`ASWebAuthenticationSession` on Apple platforms, see `signIn(session:…)` there); tokenvend sends
/// the user to the provider and back, then redirects to `redirectURI` with a one-time code; the app hands that
/// callback URL to ``AuthSession/completeWebSignIn(_:callbackURL:)``, which checks the `state` and exchanges the
/// code (with the verifier) for tokens. Tokens never travel in a URL.
///
/// ```swift
/// let web = WebSignIn(baseURL: api, provider: "github", redirectURI: "com.example.app:/oauth")
/// let pending = web.start()
/// // … open pending.authorizationURL; the browser ends at com.example.app:/oauth?code=…&state=… …
/// let result = try await session.completeWebSignIn(pending, callbackURL: callbackURL)
/// ```
public struct WebSignIn: Sendable {
    /// The API root, e.g. `https://api.example.com/`.
    public var baseURL: URL
    /// The provider's name in the server's `identityProviders`, e.g. `"github"`.
    public var provider: String
    /// Where tokenvend sends the browser back: one of the provider's `redirectURIs` in the server's configuration,
    /// exactly (a custom scheme such as `com.example.app:/oauth`, an https URL, or a loopback
    /// `http://127.0.0.1:PORT/…`).
    public var redirectURI: String

    /// Creates a web sign-in for one provider and redirect URI.
    public init(baseURL: URL, provider: String, redirectURI: String) {
        self.baseURL = baseURL
        self.provider = provider
        self.redirectURI = redirectURI
    }

    /// Starts a sign-in: a fresh verifier (32 random bytes) and `state` (32 random bytes), and the authorization
    /// URL that carries the verifier's S256 challenge. Keep the result until the callback arrives (it is
    /// `Codable`, so it may outlive a relaunch); use it once.
    public func start() -> PendingWebSignIn {
        start(verifier: PKCE.makeVerifier(), state: PKCE.randomToken())
    }

    /// ``start()`` with given values (tests).
    func start(verifier: String, state: String) -> PendingWebSignIn {
        let query = [
            ("redirect_uri", redirectURI), ("code_challenge", PKCE.challenge(for: verifier)),
            ("code_challenge_method", "S256"), ("state", state),
        ].map { "\(Self.percentEncoded($0.0))=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
        let path = "auth/oauth/" + Self.percentEncoded(provider)
        // The base URL ends with "/" or not; the path and query are appended as text, already encoded.
        var base = baseURL.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        let url = URL(string: base + path + "?" + query) ?? baseURL
        return PendingWebSignIn(
            authorizationURL: url, provider: provider, redirectURI: redirectURI, state: state, codeVerifier: verifier)
    }

    /// Percent-encodes everything except RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`), so that `/`,
    /// `:`, `?`, `&`, `=`, `+` and spaces in a redirect URI or state survive any query parser.
    static func percentEncoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }
}

/// A web sign-in between ``WebSignIn/start()`` and ``AuthSession/completeWebSignIn(_:callbackURL:)``.
///
/// It holds the PKCE verifier: keep it where the app keeps secrets for the few minutes of the sign-in, and drop it
/// afterwards (it is useless once its code was exchanged, or after the server's flow lifetime, 5 minutes by
/// default).
public struct PendingWebSignIn: Sendable, Codable, Equatable {
    /// The URL to open in the browser: `GET /auth/oauth/{provider}?redirect_uri=…&code_challenge=…&
    /// code_challenge_method=S256&state=…`.
    public var authorizationURL: URL
    /// The provider's name.
    public var provider: String
    /// The redirect URI the authorization URL names; the token request repeats it.
    public var redirectURI: String
    /// The `state` the callback must return unchanged.
    public var state: String
    /// The PKCE verifier, sent only to `POST /auth/token`.
    public var codeVerifier: String

    /// Creates a pending sign-in (``WebSignIn/start()`` makes them).
    public init(authorizationURL: URL, provider: String, redirectURI: String, state: String, codeVerifier: String) {
        self.authorizationURL = authorizationURL
        self.provider = provider
        self.redirectURI = redirectURI
        self.state = state
        self.codeVerifier = codeVerifier
    }
}

/// Printing, interpolating, `dump` and the debugger show `<redacted>` in place of the PKCE verifier and the `state`,
/// in the authorization URL too.
extension PendingWebSignIn: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { Redacted.describe("PendingWebSignIn", shownFields) }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> {
        [
            "authorizationURL": Self.redactingState(authorizationURL), "provider": provider,
            "redirectURI": redirectURI, "state": Redacted(), "codeVerifier": Redacted(),
        ]
    }

    /// `url` as text, with the value of each `state` query parameter replaced by `<redacted>` (the code challenge
    /// stays: it is a hash, meant to be public).
    private static func redactingState(_ url: URL) -> String {
        let text = url.absoluteString
        guard let mark = text.firstIndex(of: "?") else { return text }
        let query = text[text.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
        let shown = query.map { $0.hasPrefix("state=") ? "state=" + Redacted.text : String($0) }
        return text[...mark] + shown.joined(separator: "&")
    }
}

/// Why a web sign-in's callback was refused before (or instead of) the token request.
public enum WebSignInError: Error, Sendable, Equatable {
    /// The callback's `state` is missing, repeated or not the pending sign-in's: a forged or stale callback. No
    /// request was sent.
    case stateMismatch
    /// The callback carries `error` (RFC 6749 §4.1.2.1): `access_denied` when the user or the provider refused,
    /// `server_error` or `temporarily_unavailable`; `description` is tokenvend's code (`identity_conflict`,
    /// `registration_closed`, `invalid_grant`, `unavailable`) when it sent one.
    case providerError(code: String, description: String?)
    /// The callback has the right `state` but no `code`.
    case missingCode
    /// The user closed the browser sheet (`ASWebAuthenticationSession` only).
    case cancelled
}
