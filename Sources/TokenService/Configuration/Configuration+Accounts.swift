#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TokenServiceConfiguration {
    /// Self-service registration (`registration.*`).
    public struct Registration: Sendable, Equatable {
        /// When false, `POST /auth/register` answers 403 `registration_closed`. Default: true.
        public var enabled: Bool = true

        /// The defaults.
        public init() {}
    }

    /// Account deletion (`account.*`, issue 33).
    public struct Account: Sendable, Equatable {
        /// How recent a sign-in (the access token's `auth_time`) must be, in seconds, for `DELETE /auth/account` on
        /// an account without a password; 1…86400. Default: 300.
        public var reauthenticationSeconds: Int = 300

        /// The defaults.
        public init() {}
    }

    /// Password policy and Argon2id cost (`password.*`). Hashes are upgraded on login when the cost changes.
    public struct Password: Sendable, Equatable {
        /// Shortest accepted new password, in Unicode code points as sent; 8…128. Default: 12.
        public var minLength: Int = 12
        /// Argon2id iterations (`opslimit`); 1…10. Default: 2.
        public var timeCost: Int = 2
        /// Argon2id memory in KiB; 8192…1048576. Default: 19456 (19 MiB, OWASP's minimum).
        public var memoryCost: Int = 19456
        /// Hashes computed at once; 1…1024. Default: the number of active CPU cores.
        public var maxConcurrentHashes: Int = Password.defaultMaxConcurrentHashes
        /// Hash requests waiting for a free slot; beyond it: 503. Default: 64.
        public var maxQueuedHashes: Int = 64

        /// The defaults.
        public init() {}

        /// The number of active CPU cores, at least 1.
        static var defaultMaxConcurrentHashes: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
    }

    /// Login and request rate limits (`rateLimit.*`).
    public struct RateLimit: Sendable, Equatable {
        /// Failed logins per account within ``loginWindowSeconds`` before 429. Default: 5.
        public var loginFailuresPerAccount: Int = 5
        /// Window for counting failed logins. Default: 900 s.
        public var loginWindowSeconds: Int = 900
        /// Refused ID tokens (`POST /auth/idtoken`) per client address within ``loginWindowSeconds`` before 429,
        /// garbage included; 1…1000000. Refusals after the provider's signature held count against the token's
        /// provider and subject too, with ``loginFailuresPerAccount``. Default: 100 (many users may share one
        /// address behind carrier NAT).
        public var idTokenFailuresPerAddress: Int = 100
        /// Requests per client address per minute on the token-issuing `/auth/*` endpoints. Default: 60.
        public var requestsPerAddressPerMinute: Int = 60

        /// The defaults.
        public init() {}
    }
}
