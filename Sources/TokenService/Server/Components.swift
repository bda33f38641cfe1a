import FoundationEssentials
import HTTPServer
import IdentityProviders
import JWT
import Logging
import PasswordHash
import Store
import Synchronization

/// The service's parts, wired from the configuration once at start-up.
struct Components: Sendable {
    let auth: AuthService
    /// The email endpoints (issue 32).
    let email: EmailFlows
    /// This instance's outbox sender; nil when `email.transport` is `off` and no provider configures Sign in with
    /// Apple's REST API.
    let sender: OutboxSender?
    /// `POST /auth/apple/notifications`.
    let appleNotifications: AppleNotifications
    /// Deletes accounts (issue 33): `DELETE /auth/account`, the `deletion` code, the web page, Apple's
    /// notification.
    let deletion: AccountDeletion
    /// Account deletion's endpoints and the page at `GET /account/delete`.
    let accounts: AccountEndpoints
    let vending: TokenVending
    let hashingPool: HashingPool
    let metrics: ServiceMetrics
    /// The published keys and the discovery document.
    let discovery: KeyDiscovery
    /// `log.healthChecks`: whether a successful probe gets an access line.
    let logsHealthChecks: Bool
    /// The per-route app-integrity policy (issue 34).
    let integrity: IntegrityGate
    /// `/integrity/*`.
    let integrityEndpoints: IntegrityEndpoints
    /// `/auth/passkeys/…` and the association files (issue 36).
    let passkeys: PasskeyEndpoints

    init(
        configuration: TokenServiceConfiguration, backend: any StoreBackend, metrics: ServiceMetrics, logger: Logger,
        mossUpstream: (any MossUpstream)?, jwksFetcher: any JWKSFetching = CurlJWKSFetcher(),
        oauthClient: any OAuthHTTPClient = CurlOAuthClient(), now: @escaping @Sendable () -> Date
    ) throws {
        let users = backend.users
        let sessions = backend.sessions
        let access = configuration.accessToken
        guard let refreshSecret = configuration.refreshToken.secret, !access.keys.isEmpty else {
            // ConfigurationLoader.load always fills both (development keys when none are configured).
            throw ConfigurationError.invalidValue(
                key: "accessToken.keys", source: "configuration",
                reason: "access-token keys and refresh secret must be set (use ConfigurationLoader.load)")
        }
        let ring = try AccessKeyRing(access)
        logger.info("access-token keys", metadata: ["keys": "\(ring.summary)"])
        let accessKeys = ring.verification
        let cache = VerifiedTokenCache()
        let accessTokens = AccessTokenIssuer(
            keys: accessKeys, issuer: access.issuer, audience: access.audience, lifetime: Int64(access.ttlSeconds),
            leeway: Int64(access.leewaySeconds), cache: cache)
        metrics.counter(
            "tokenvend_access_token_cache_hits_total", help: "Access tokens accepted without a signature check."
        ) { cache.hits.load(ordering: .relaxed) }
        metrics.counter(
            "tokenvend_access_token_cache_misses_total", help: "Access tokens whose signature was checked."
        ) { cache.misses.load(ordering: .relaxed) }
        discovery = try KeyDiscovery(
            jwks: ring.published.serialized(), algorithms: ring.publishedAlgorithms, issuer: access.issuer,
            maxAge: configuration.jwks.maxAgeSeconds, dpopAlgorithms: configuration.dpop.algorithms)
        let dpop = try DPoPGate(configuration: configuration, backend: backend, metrics: metrics.dpop)
        let authenticator = Authenticator(tokens: accessTokens, sessions: sessions, dpop: dpop)
        let password = configuration.password
        let hasher = LazyPasswordHasher(timeCost: password.timeCost, memoryKiB: password.memoryCost)
        hashingPool = HashingPool(maxConcurrent: password.maxConcurrentHashes, maxQueued: password.maxQueuedHashes)
        let rate = configuration.rateLimit
        let limits = AuthService.Limits(
            refreshTTL: .seconds(configuration.refreshToken.ttlSeconds),
            reuseGrace: .seconds(configuration.refreshToken.reuseGraceSeconds),
            sessionMaxLifetime: .seconds(configuration.session.maxLifetimeSeconds),
            maxSessionsPerUser: configuration.session.maxPerUser,
            registrationEnabled: configuration.registration.enabled,
            accountFailures: Self.limiter(
                backend, bucket: SharedRateLimiter.loginFailures, limit: rate.loginFailuresPerAccount,
                windowSeconds: rate.loginWindowSeconds, now: now),
            idTokenSubjectFailures: Self.limiter(
                backend, bucket: SharedRateLimiter.idTokenSubjectFailures, limit: rate.loginFailuresPerAccount,
                windowSeconds: rate.loginWindowSeconds, now: now),
            idTokenAddressFailures: Self.limiter(
                backend, bucket: SharedRateLimiter.idTokenAddressFailures, limit: rate.idTokenFailuresPerAddress,
                windowSeconds: rate.loginWindowSeconds, now: now),
            addressRequests: Self.limiter(
                backend, bucket: SharedRateLimiter.addressRequests, limit: rate.requestsPerAddressPerMinute,
                windowSeconds: 60, buffered: true, now: now),
            flowStarts: Self.limiter(
                backend, bucket: SharedRateLimiter.flowStarts, limit: configuration.identity.maxPendingFlowsPerAddress,
                windowSeconds: configuration.identity.flowLifetimeSeconds, now: now))
        let keys = IdentitySignIn.keyCache(fetcher: jwksFetcher, logger: logger)
        let apple = try AppleTokens.make(
            configuration.identity, store: backend.identities, metrics: metrics.apple, now: now)
        var identity = try IdentitySignIn(configuration: configuration.identity, store: backend.identities, keys: keys)
        identity.apple = apple
        auth = AuthService(
            users: users, sessions: sessions, hasher: hasher, hashingPool: hashingPool,
            policy: PasswordPolicy(minLength: password.minLength), accessTokens: accessTokens,
            refreshTokens: try RefreshTokenCodec(secret: refreshSecret.bytes), authenticator: authenticator,
            limits: limits,
            identity: identity,
            browser: try BrowserSignIn(
                configuration: configuration, store: backend.oauth, http: oauthClient, keys: keys, logger: logger),
            metrics: metrics, now: now)
        (email, sender) = try Self.emailFlows(
            configuration, backend: backend, auth: auth, refreshSecret: refreshSecret.bytes, apple: apple,
            metrics: metrics, logger: logger, now: now)
        let wakeSender: @Sendable () -> Void = { [sender] in sender?.wake() }
        let deletion = AccountDeletion(users: users, metrics: metrics, logger: logger, wake: wakeSender, now: now)
        self.deletion = deletion
        passkeys = try PasskeyEndpoints(
            auth: auth, store: backend.passkeys, configuration: configuration.passkeys,
            emailSignIn: configuration.email.signInCodes && configuration.email.isEnabled,
            metrics: metrics.passkeys)
        accounts = AccountEndpoints(
            email: email, deletion: deletion,
            reauthenticationSeconds: configuration.account.reauthenticationSeconds)
        appleNotifications = AppleNotifications(
            identity: identity, providers: configuration.identity.providers, users: users, sessions: sessions,
            metrics: metrics.apple, now: now
        ) { userID in
            _ = try await deletion.delete(userID: userID, method: .appleNotification)
        }
        vending = TokenVending(
            authenticator: authenticator,
            vendors: try Self.vendors(configuration.vendors, metrics: metrics, logger: logger),
            stream: Self.streamTemplate(configuration.stream),
            moss: Self.mossCache(configuration.moss, upstream: mossUpstream, metrics: metrics, logger: logger),
            metrics: metrics, now: now)
        self.metrics = metrics
        logsHealthChecks = configuration.log.healthChecks
        (integrity, integrityEndpoints) = try Self.integrity(
            configuration, keys: accessKeys, store: backend.integrity, providerKeys: keys, auth: auth,
            metrics: metrics, logger: logger, now: now)
    }

    /// A limiter shared through the store's counters when it has them (PostgreSQL: every instance counts), else
    /// one in process memory (SQLite: one instance). `buffered` (default false): on shared counters, count
    /// locally and flush every 100 ms (`BufferedRateLimiter`: for the per-address limit every token-issuing
    /// request passes) instead of one durable write per event.
    static func limiter(
        _ backend: any StoreBackend, bucket: String, limit: Int, windowSeconds: Int, buffered: Bool = false,
        now: @escaping @Sendable () -> Date
    ) -> any RateLimiting {
        guard let counters = backend.rateLimits else {
            return RateLimiter(limit: limit, window: Double(windowSeconds))
        }
        if buffered {
            return BufferedRateLimiter(
                counters: counters, bucket: bucket, limit: limit, window: .seconds(windowSeconds), now: now)
        }
        return SharedRateLimiter(
            counters: counters, bucket: bucket, limit: limit, window: .seconds(windowSeconds), now: now)
    }

    static func mossCache(
        _ moss: MossConfiguration?, upstream: (any MossUpstream)?, metrics: ServiceMetrics, logger: Logger
    ) -> MossTokenCache? {
        let chosen: any MossUpstream
        if let upstream {
            chosen = upstream
        } else {
            guard let moss else { return nil }
            chosen = MossHTTPUpstream(configuration: moss)
        }
        // Refresh ahead of the serving margin, so clients that themselves refetch 60 s early keep hitting
        // the cache instead of waiting on Moss.
        let cache = MossTokenCache(upstream: chosen, refreshAhead: .seconds(120), logger: logger)
        metrics.counter(
            "tokenvend_moss_upstream_calls_total", help: "Project-token requests to the Moss auth service."
        ) {
            let statistics = cache.statistics
            return UInt64(clamping: statistics.refreshes + statistics.failures)
        }
        metrics.counter(
            "tokenvend_moss_upstream_failures_total", help: "Failed project-token requests to the Moss auth service."
        ) { UInt64(clamping: cache.statistics.failures) }
        return cache
    }
}
