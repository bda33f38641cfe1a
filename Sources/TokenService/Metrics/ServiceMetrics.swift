public import HTTPServer
public import Prometheus
public import Store
import Synchronization

/// The metrics tokenvend exposes at `GET /metrics`, kept in a swift-prometheus registry.
///
/// The registry is the executable's: it bootstraps swift-metrics with a `PrometheusMetricsFactory` over the same
/// registry, so metrics that libraries emit through swift-metrics appear on `/metrics` beside these. Every series
/// is made once (at start-up, or on its first use) and then updated without building labels or looking it up in
/// the registry. Values kept by other components (hashing-pool load, Moss calls) are copied in by samplers that
/// run when `/metrics` is rendered.
public struct ServiceMetrics: Sendable {
    /// The registry the metrics live in (the one `/metrics` renders).
    public let registry: PrometheusCollectorRegistry
    /// `tokenvend_http_requests_total{route,method,status}` and `tokenvend_http_request_duration_seconds{route}`.
    public let requests: RequestMetrics
    /// `tokenvend_logins_total{result}`.
    public let logins: LabelledCounter<LoginResult>
    /// `tokenvend_tokens_issued_total{kind}`.
    public let tokensIssued: LabelledCounter<IssuedTokenKind>
    /// `tokenvend_refresh_reuse_detected_total`.
    public let refreshReuseDetected: ServiceCounter
    /// `tokenvend_sessions_revoked_total{reason}` (`session_cap`: a login beyond `session.maxPerUser`).
    public let sessionsRevoked: LabelledCounter<RevocationReason>
    /// `tokenvend_idtoken_signins_total{result}`.
    public let idTokenSignIns: LabelledCounter<IDTokenSignInResult>
    /// `tokenvend_idtoken_rejections_total{reason}`.
    public let idTokenRejections: LabelledCounter<IDTokenRejectionReason>
    /// `tokenvend_oauth_signins_total{stage,result}`: the browser sign-in's steps.
    public let oauthSignIns: OAuthSignInCounter
    /// `tokenvend_email_messages_total{kind,result}`, `tokenvend_email_codes_total{kind,result}` and
    /// `tokenvend_email_outbox_pending`.
    public let email: EmailMetrics
    /// `tokenvend_apple_token_requests_total{operation,result}` and
    /// `tokenvend_apple_notifications_total{type,result}`.
    public let apple: AppleMetrics
    /// `tokenvend_account_deletions_total{method}`: accounts deleted, by how (every method exposed from start-up).
    public let accountDeletions: LabelledCounter<AccountDeletionMethod>
    /// `tokenvend_integrity_checks_total{route,result,reason}` and `tokenvend_integrity_tokens_issued_total{platform}`.
    public let integrity: IntegrityMetrics
    /// `tokenvend_dpop_proofs_total{result,reason}`.
    public let dpop: DPoPMetrics
    /// `tokenvend_passkey_ceremonies_total{ceremony,result,reason}`.
    public let passkeys: PasskeyMetrics
    private let samplers: Samplers

    /// Creates the metrics in `registry`. Default: a new registry of their own.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        requests = RequestMetrics(registry: registry)
        logins = LabelledCounter(
            registry: registry, name: "tokenvend_logins_total", help: "Login attempts by result.", label: "result")
        tokensIssued = LabelledCounter(
            registry: registry, name: "tokenvend_tokens_issued_total", help: "Tokens issued by kind.", label: "kind")
        refreshReuseDetected = ServiceCounter(
            registry: registry, name: "tokenvend_refresh_reuse_detected_total",
            help: "Spent refresh tokens presented again (session revoked).")
        sessionsRevoked = LabelledCounter(
            registry: registry, name: "tokenvend_sessions_revoked_total", help: "Sessions revoked by reason.",
            label: "reason")
        idTokenSignIns = LabelledCounter(
            registry: registry, name: "tokenvend_idtoken_signins_total", help: "ID-token sign-ins by result.",
            label: "result")
        idTokenRejections = LabelledCounter(
            registry: registry, name: "tokenvend_idtoken_rejections_total",
            help: "ID tokens refused with 401 invalid_grant, by reason.", label: "reason")
        oauthSignIns = OAuthSignInCounter(registry: registry)
        email = EmailMetrics(registry: registry)
        apple = AppleMetrics(registry: registry)
        integrity = IntegrityMetrics(registry: registry)
        dpop = DPoPMetrics(registry: registry)
        passkeys = PasskeyMetrics(registry: registry)
        accountDeletions = LabelledCounter(
            registry: registry, name: "tokenvend_account_deletions_total", help: "Accounts deleted, by method.",
            label: "method")
        // Made now, at 0: a dashboard sees every method before its first deletion.
        for method in AccountDeletionMethod.allCases { accountDeletions.increment(method, by: 0) }
        samplers = Samplers()
        samplers.add(email.gaugeSampler)
    }

    /// Counts one finished request and its latency (the HTTP server's observer calls this for every response).
    public func record(_ completed: CompletedRequest) {
        requests.record(completed)
    }

    /// Registers a gauge whose value `read` gives when `/metrics` is rendered.
    public func gauge(_ name: String, help: String, read: @escaping @Sendable () -> Double) {
        let gauge = registry.makeGauge(name: name, help: help)
        samplers.add { gauge.set(to: read()) }
    }

    /// The series of `tokenvend_vended_tokens_total{vendor}` for one configured vendor, made at start-up so every
    /// configured vendor is exposed (at 0) before its first token; vendor names are a closed set from the
    /// configuration.
    public func vendedTokens(vendor: String) -> ServiceCounter {
        ServiceCounter(
            registry: registry, name: "tokenvend_vended_tokens_total",
            help: "Tokens answered at POST /vend/{vendor}, by vendor.", label: (name: "vendor", value: vendor))
    }

    /// Registers a counter kept by another component; `read` gives its running total when `/metrics` is rendered
    /// (a total that goes down is ignored: a counter only rises).
    public func counter(_ name: String, help: String, read: @escaping @Sendable () -> UInt64) {
        let counter = registry.makeCounter(name: name, help: help)
        let published = Mutex<UInt64>(0)
        samplers.add {
            published.withLock { last in
                let total = read()
                guard total > last else { return }
                counter.increment(by: Int64(clamping: total - last))
                last = total
            }
        }
    }

    /// The `/metrics` body: runs the samplers, then renders the whole registry in the text format 0.0.4.
    public func exposition() -> [UInt8] {
        samplers.run()
        return registry.emitToBuffer()
    }
}

/// The closures that copy values kept elsewhere into the registry before it is rendered.
private final class Samplers: Sendable {
    private let all = Mutex<[@Sendable () -> Void]>([])

    func add(_ sampler: @escaping @Sendable () -> Void) {
        all.withLock { $0.append(sampler) }
    }

    func run() {
        for sampler in all.withLock({ $0 }) { sampler() }
    }
}
