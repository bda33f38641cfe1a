import FoundationEssentials
import IdentityProviders
import Logging
import Store

/// Sign in with Apple's REST API for the service: redeeming the `authorizationCode` of `POST /auth/idtoken` for
/// Apple's refresh token, kept sealed on the identity, and revoking it (the outbox's `revoke_provider_token`
/// jobs). One ``AppleRESTClient`` per provider that configures the REST API.
///
/// Neither the code, nor the refresh token, nor the client secret is ever logged or returned.
struct AppleTokens: Sendable {
    /// What a revocation came to, for the outbox job.
    enum Revocation: Sendable, Equatable {
        /// Apple confirmed it: the job is done.
        case revoked
        /// Worth another try (timeout, connection, 5xx, or no client for the provider on this instance).
        case retry(String)
        /// Apple refused it (4xx), or the sealed token does not open: the job ends.
        case refused(String)
    }

    /// The REST clients by provider name.
    let clients: [String: AppleRESTClient]
    let seal: ProviderTokenSeal
    let store: any IdentityStoring
    let metrics: AppleMetrics

    /// The clients of every provider of `identity` that configures Apple's REST API, or nil when none does.
    /// - Parameter deadline: the bound of each call to Apple (default 5 s: a sign-in waits for the redemption).
    /// - Throws: `ConfigurationError` when a provider configures the REST API without a token encryption key (the
    ///   loader refuses that already).
    static func make(
        _ identity: TokenServiceConfiguration.Identity, store: any IdentityStoring, metrics: AppleMetrics,
        deadline: Duration = .seconds(5), now: @escaping @Sendable () -> Date
    ) throws -> AppleTokens? {
        var clients: [String: AppleRESTClient] = [:]
        for provider in identity.providers {
            guard let rest = provider.appleREST else { continue }
            clients[provider.name] = AppleRESTClient(configuration: rest, deadline: deadline, now: now)
        }
        guard !clients.isEmpty else { return nil }
        guard let key = identity.tokenEncryptionKey else {
            throw ConfigurationError.invalidValue(
                key: ConfigurationLoader.tokenEncryptionKeyPath, source: "",
                reason: "missing; Sign in with Apple's REST API is configured")
        }
        return AppleTokens(clients: clients, seal: try ProviderTokenSeal(key: key), store: store, metrics: metrics)
    }

    /// Redeems `code` for the identity (provider, subject) just signed in to `userID` and stores Apple's refresh
    /// token sealed. Never throws: a failure is logged and counted, and the sign-in goes on. A provider without
    /// the REST API ignores the code.
    func redeem(code: String, provider: String, subject: String, userID: String, logger: Logger) async {
        guard let client = clients[provider] else { return }
        let metadata: Logger.Metadata = ["provider": "\(provider)", "user.id": "\(userID)"]
        let refreshToken: String
        switch await client.redeem(code: code) {
        case .success(let token):
            refreshToken = token
        case .failure(let failure):
            metrics.tokenRequest(.redeem, Self.result(of: failure))
            logger.warning(
                "Apple authorization code not redeemed; the sign-in goes on",
                metadata: metadata.merging(["reason": "\(failure)"]) { $1 })
            return
        }
        do {
            let sealed = try seal.seal(refreshToken, provider: provider)
            let stored = try await store.setSealedRefreshToken(
                provider: provider, subject: subject, userID: userID, sealed: sealed)
            guard stored else {
                metrics.tokenRequest(.redeem, .error)
                logger.warning(
                    "Apple refresh token not stored: the identity was unlinked meanwhile", metadata: metadata)
                return
            }
        } catch {
            metrics.tokenRequest(.redeem, .error)
            logger.warning(
                "Apple refresh token not stored", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return
        }
        metrics.tokenRequest(.redeem, .success)
        logger.info("Apple refresh token stored", metadata: metadata)
    }

    /// Revokes the sealed refresh token of `provider` (an outbox row's recipient and body).
    func revoke(sealed: [UInt8], provider: String) async -> Revocation {
        guard let client = clients[provider] else {
            return .retry("provider \(provider) has no Apple REST configuration on this instance")
        }
        let token: String
        do {
            token = try seal.open(sealed, provider: provider)
        } catch {
            metrics.tokenRequest(.revoke, .error)
            return .refused("the sealed token does not open (was identity.tokenEncryptionKeyFile changed?)")
        }
        switch await client.revoke(refreshToken: token) {
        case .success:
            metrics.tokenRequest(.revoke, .success)
            return .revoked
        case .failure(let failure):
            metrics.tokenRequest(.revoke, Self.result(of: failure))
            return failure.isRetryable ? .retry(failure.description) : .refused(failure.description)
        }
    }

    static func result(of failure: AppleRESTFailure) -> AppleMetrics.TokenResult {
        switch failure {
        case .timedOut: .timeout
        case .unreachable: .unreachable
        case .serverError: .serverError
        case .refused: .refused
        case .tooLarge, .malformedAnswer, .missingRefreshToken: .malformed
        case .clientSecret: .error
        }
    }
}
