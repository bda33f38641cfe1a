public import Prometheus

/// Sign in with Apple's metrics: `tokenvend_apple_token_requests_total{operation,result}` (calls to Apple's token
/// and revoke endpoints) and `tokenvend_apple_notifications_total{type,result}` (server-to-server notifications).
/// Every series is made at start-up from closed sets, so no label value comes from a request.
public final class AppleMetrics: Sendable {
    /// The `operation` of `tokenvend_apple_token_requests_total`.
    public enum Operation: String, Sendable, CaseIterable {
        /// An authorization code redeemed at `POST /auth/idtoken`.
        case redeem
        /// A refresh token revoked by the outbox sender.
        case revoke
    }

    /// The `result` of `tokenvend_apple_token_requests_total`.
    public enum TokenResult: String, Sendable, CaseIterable {
        /// Redeemed and stored, or revoked.
        case success
        /// No answer in time (a revocation is retried).
        case timeout
        /// No connection (a revocation is retried).
        case unreachable
        /// Apple answered 5xx or 429 (a revocation is retried).
        case serverError = "server_error"
        /// Apple answered another 4xx: the code or token was refused (a revocation ends).
        case refused
        /// An answer that is not what Apple sends (not JSON, no refresh token, too large).
        case malformed
        /// A revocation failing for 7 days: given up.
        case givenUp = "given_up"
        /// Nothing was sent or kept: the token could not be sealed, opened or stored.
        case error
    }

    /// The `type` of `tokenvend_apple_notifications_total`: Apple's event types, and `invalid` for a
    /// notification that does not verify or has no known type.
    public static let notificationTypes = [
        "consent-revoked", "account-delete", "email-disabled", "email-enabled", "other", "invalid",
    ]

    /// The `result` of `tokenvend_apple_notifications_total`.
    public enum NotificationResult: String, Sendable, CaseIterable {
        /// Acted on (sessions revoked, account deleted or unlinked, forwarding recorded).
        case applied
        /// Its `sub` is no identity here: nothing to do (200).
        case unknownSubject = "unknown_subject"
        /// Its `jti` was seen before: not applied again (200).
        case replayed
        /// The event is older than the identity's link: it concerns an earlier link (200).
        case stale
        /// It does not verify (400).
        case rejected
        /// A verified event of a type tokenvend does not act on (Apple may add types): acknowledged (200), logged.
        case ignored
    }

    private let tokenRequests: [String: Counter]
    private let notifications: [String: Counter]
    private let registry: PrometheusCollectorRegistry

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        var tokenRequests: [String: Counter] = [:]
        for operation in Operation.allCases {
            for result in TokenResult.allCases {
                tokenRequests[operation.rawValue + "/" + result.rawValue] = registry.makeCounter(
                    name: "tokenvend_apple_token_requests_total",
                    labels: [("operation", operation.rawValue), ("result", result.rawValue)],
                    help: "Calls to Sign in with Apple's token and revoke endpoints, by operation and result.")
            }
        }
        var notifications: [String: Counter] = [:]
        for type in Self.notificationTypes {
            for result in NotificationResult.allCases {
                notifications[type + "/" + result.rawValue] = registry.makeCounter(
                    name: "tokenvend_apple_notifications_total", labels: [("type", type), ("result", result.rawValue)],
                    help: "Sign in with Apple server-to-server notifications, by event type and result.")
            }
        }
        self.tokenRequests = tokenRequests
        self.notifications = notifications
    }

    /// Counts one call to Apple.
    public func tokenRequest(_ operation: Operation, _ result: TokenResult) {
        tokenRequests[operation.rawValue + "/" + result.rawValue]?.increment()
    }

    /// Counts one notification; a type outside the closed set counts as `invalid`.
    public func notification(type: String, _ result: NotificationResult) {
        let known = Self.notificationTypes.contains(type) ? type : "other"
        notifications[known + "/" + result.rawValue]?.increment()
    }

    /// The current value of one token-request series; renders the registry (tests).
    public func tokenRequests(_ operation: Operation, _ result: TokenResult) -> Double {
        PrometheusSample.value(
            in: registry,
            #"tokenvend_apple_token_requests_total{operation="\#(operation.rawValue)",result="\#(result.rawValue)"}"#)
    }

    /// The current value of one notification series; renders the registry (tests).
    public func notifications(type: String, _ result: NotificationResult) -> Double {
        PrometheusSample.value(
            in: registry, #"tokenvend_apple_notifications_total{type="\#(type)",result="\#(result.rawValue)"}"#)
    }
}
