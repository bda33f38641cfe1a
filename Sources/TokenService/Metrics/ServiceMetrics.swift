public import HTTPServer

/// The metric families tokenvend exposes at `GET /metrics`, created once per server.
public struct ServiceMetrics: Sendable {
    /// The registry the families live in; `render()` gives the `/metrics` body.
    public let registry: MetricsRegistry
    /// `tokenvend_http_requests_total{route,method,status}`. Every label comes from a fixed set (see
    /// `labels(for:)`), so clients cannot create series.
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
        let labels = Self.labels(for: completed)
        requests.increment(labels.route, labels.method, labels.status)
        requestDuration.observe(Double(completed.durationMicroseconds) / 1_000_000, labels: [labels.route])
    }

    /// The statuses that label a series by their code; any other is labelled by its class (`2xx` … `5xx`).
    static let labelledStatuses: Set<Int> = [
        200, 201, 204, 400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 422, 429, 431, 500, 501, 502, 503, 504, 505,
    ]

    /// The labels of one request, each from a fixed set: `route` is a route template or `unmatched`, `method`
    /// one of `HTTPMethod.known` or `other` (`-` for a request rejected before its method was read), `status`
    /// one of `labelledStatuses` or a status class.
    static func labels(for completed: CompletedRequest) -> (route: String, method: String, status: String) {
        let method: String
        if completed.method == "-" {
            method = "-"
        } else {
            method = HTTPMethod(completed.method).isKnown ? completed.method : "other"
        }
        let code = completed.status.code
        let status = labelledStatuses.contains(code) ? String(code) : "\(min(max(code / 100, 1), 5))xx"
        return (completed.route ?? "unmatched", method, status)
    }
}
