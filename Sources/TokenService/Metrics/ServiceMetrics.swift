public import HTTPServer

/// The metric families tokenvend exposes at `GET /metrics`, created once per server.
public struct ServiceMetrics: Sendable {
    /// The registry the families live in; `render()` gives the `/metrics` body.
    public let registry: MetricsRegistry
    /// `tokenvend_http_requests_total{route,method,status}`.
    public let requests: CounterFamily
    /// `tokenvend_http_request_duration_seconds{route}`.
    public let requestDuration: HistogramFamily
    /// `tokenvend_logins_total{result}`: `succeeded`, `failed`, `rate_limited`, `overloaded`.
    public let logins: CounterFamily
    /// `tokenvend_tokens_issued_total{kind}`: `access`, `refresh`, `moss`, `stream`.
    public let tokensIssued: CounterFamily
    /// `tokenvend_refresh_reuse_detected_total`.
    public let refreshReuseDetected: CounterFamily
    /// `tokenvend_sessions_revoked_total{reason}`: `logout`, `reuse`, `user_disabled`, `revoked_by_user`,
    /// `session_cap` (a login beyond `session.maxPerUser`).
    public let sessionsRevoked: CounterFamily

    /// Creates the families in a new registry.
    public init() {
        let registry = MetricsRegistry()
        self.registry = registry
        requests = registry.counter(
            "tokenvend_http_requests_total", help: "HTTP requests by route, method and status.",
            labels: ["route", "method", "status"])
        requestDuration = registry.histogram(
            "tokenvend_http_request_duration_seconds", help: "Time from a complete request to its response.",
            labels: ["route"],
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])
        logins = registry.counter(
            "tokenvend_logins_total", help: "Login attempts by result.", labels: ["result"])
        tokensIssued = registry.counter(
            "tokenvend_tokens_issued_total", help: "Tokens issued by kind.", labels: ["kind"])
        refreshReuseDetected = registry.counter(
            "tokenvend_refresh_reuse_detected_total", help: "Spent refresh tokens presented again (session revoked).")
        sessionsRevoked = registry.counter(
            "tokenvend_sessions_revoked_total", help: "Sessions revoked by reason.", labels: ["reason"])
    }

    /// Counts one finished request and its latency (the HTTP server's observer calls this for every response).
    public func record(_ completed: CompletedRequest) {
        let route = completed.route ?? "unmatched"
        requests.increment(route, completed.method, String(completed.status.code))
        requestDuration.observe(Double(completed.durationMicroseconds) / 1_000_000, labels: [route])
    }
}
