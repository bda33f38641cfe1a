public import Prometheus

/// `tokenvend_oauth_signins_total{stage, result}`: how each step of the browser sign-in ended. The pairs are a
/// closed set (each case is one series), so the label values never come from a request.
public enum OAuthSignInEvent: String, Sendable, CaseIterable {
    /// `GET /auth/oauth/{provider}` redirected to the provider.
    case startRedirected = "start/redirected"
    /// The start request was refused with 400 (unknown provider, unregistered redirect URI, bad PKCE or state).
    case startInvalidRequest = "start/invalid_request"
    /// The start request was rate limited (429).
    case startRateLimited = "start/rate_limited"
    /// The provider's discovery document could not be fetched (503).
    case startProviderUnavailable = "start/provider_unavailable"
    /// `identity.maxPendingFlows` browser sign-ins were under way already (503).
    case startTooManyFlows = "start/too_many_flows"
    /// The callback signed in a known identity.
    case callbackSignedIn = "callback/signed_in"
    /// The callback linked an identity to the user with its verified email.
    case callbackLinked = "callback/linked"
    /// The callback created a user.
    case callbackCreated = "callback/created"
    /// The callback's state was unknown, used or expired (400, no redirect).
    case callbackInvalidState = "callback/invalid_state"
    /// The provider answered the authorization request with an error (passed on to the app).
    case callbackProviderError = "callback/provider_error"
    /// The provider's token endpoint or keys could not be reached (`temporarily_unavailable`).
    case callbackProviderUnavailable = "callback/provider_unavailable"
    /// The provider refused the code, or its ID token or user info was not accepted (`access_denied`).
    case callbackRejected = "callback/rejected"
    /// `identity_conflict`.
    case callbackConflict = "callback/conflict"
    /// `registration_closed`.
    case callbackRegistrationClosed = "callback/registration_closed"
    /// `POST /auth/token` issued tokens.
    case tokenIssued = "token/issued"
    /// `POST /auth/token` refused a code (unknown, expired, wrong verifier or redirect URI).
    case tokenInvalidGrant = "token/invalid_grant"
    /// `POST /auth/token` saw a code used before, and revoked the session it issued.
    case tokenReplayed = "token/replayed"
    /// `POST /auth/token` with a malformed request or another grant type.
    case tokenInvalidRequest = "token/invalid_request"
    /// `POST /auth/token` rate limited.
    case tokenRateLimited = "token/rate_limited"

    /// The `stage` label: `start`, `callback` or `token`.
    public var stage: String { String(rawValue.prefix { $0 != "/" }) }
    /// The `result` label.
    public var result: String { String(rawValue.drop { $0 != "/" }.dropFirst()) }
}

/// The counters of ``OAuthSignInEvent``, made at start-up.
public final class OAuthSignInCounter: Sendable {
    static let name = "tokenvend_oauth_signins_total"
    private let registry: PrometheusCollectorRegistry
    private let counters: [OAuthSignInEvent: Counter]

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var counters: [OAuthSignInEvent: Counter] = [:]
        for event in OAuthSignInEvent.allCases {
            counters[event] = registry.makeCounter(
                name: Self.name, labels: [("stage", event.stage), ("result", event.result)],
                help: "Browser sign-in steps by stage and result.")
        }
        self.counters = counters
    }

    /// Counts one `event`.
    public func increment(_ event: OAuthSignInEvent) {
        counters[event]?.increment()
    }

    /// The current value of one series (tests).
    public func value(_ event: OAuthSignInEvent) -> Double {
        PrometheusSample.value(in: registry, #"\#(Self.name){stage="\#(event.stage)",result="\#(event.result)"}"#)
    }
}
