public import Logging

extension TokenServiceConfiguration {
    /// Bloomreach Stream keys for `POST /stream-token` (`stream.*`). Unset by default: the route answers 503.
    public struct Stream: Sendable, Equatable {
        /// Signing keys (HS512, each secret at least 64 bytes). Default: none.
        public var keys: [SigningKey] = []
        /// The `kid` new tokens are signed with. Default: the first key. After loading it names a key whenever
        /// ``keys`` is not empty.
        public var activeKid: String?
        /// Lifetime of a stream token. Default: 900 s.
        public var ttlSeconds: Int = 900
        /// When true, a user whose email is verified (created by `tokenvend users add`, or marked with
        /// `tokenvend users verify-email`) gets the email as the `registered` customer id; otherwise, and for
        /// every unverified email, `registered` is the user id. An id set with `users set-customer-id` wins
        /// either way. Default: false.
        public var emailCustomerId: Bool = false
        /// The `bloomreach-stream` preset entry the loader compiles from these keys
        /// (``ConfigurationLoader/compileStream(_:)``); nil without keys.
        public var vendor: VendorSettings?

        /// The defaults.
        public init() {}

        /// The key named by ``activeKid`` (or the first key when it is unset); `nil` when no key is configured.
        public var activeKey: SigningKey? { keys.active(activeKid) }
    }

    /// Log level and format (`log.*`). Logs go to stderr.
    public struct Log: Sendable, Equatable {
        /// Lowest level written: `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`. The
        /// `LOG_LEVEL` environment variable is honoured too (`TOKENVEND_LOG_LEVEL` wins). Default: `info`.
        public var level: Logger.Level = .info
        /// Line format. Default: ``Format/json``.
        public var format: Format = .json
        /// Whether a successful `/healthz` or `/readyz` gets an access line. Default: false: probes arrive every
        /// few seconds from every kubelet and load balancer, and `tokenvend_http_requests_total` counts them
        /// anyway; a probe answered 400 or above is always logged.
        public var healthChecks = false

        /// The defaults.
        public init() {}

        /// How each log line is written.
        public enum Format: String, Sendable, Equatable, CaseIterable {
            /// One JSON object per line.
            case json
            /// `key=value` pairs per line (logfmt).
            case logfmt
        }
    }
}
