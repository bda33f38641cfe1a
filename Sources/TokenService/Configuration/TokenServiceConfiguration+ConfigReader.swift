import AppIntegrity
package import Configuration
import HTTPServer
import Logging
import PostgresStore
import SQLiteStore
import Store
import WebAuthn

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TokenServiceConfiguration {
    /// Reads every section from `reader`; a key left out keeps its default, which lives on the property.
    ///
    /// The loader's providers hold values already checked against ``ConfigurationKey/all`` and stored with the
    /// key's own type, so no read here can meet a value of another type and fall back to a default
    /// (`ConfigurationReaderTests` proves it for every key). An empty string or list is an explicit unset: it
    /// comes from `null` in the file or an empty variable, and hides what a lower layer gave.
    /// - Throws: ``ConfigurationError`` for `moss.projectId` without `moss.projectKey` or the reverse.
    /// Package access on purpose: the optional readers used here fall back to the default on a value of the
    /// wrong type, which is safe only behind tokenvend's loader (`ConfigurationLoader`), whose providers hold
    /// values already checked against the key table (`ConfigurationReaderTests.everyKeyReadWithItsType`).
    package init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        server = HTTPServer.Configuration(reader: reader.scoped(to: "server"), defaults: Self.serverDefaults)
        database = Database.Configuration(reader: reader.scoped(to: "database"), defaults: Self.databaseDefaults)
        let cacheLifetime = reader.int(forKey: "database.statusCacheLifetimeMilliseconds")
        database.statusCacheLifetime = cacheLifetime.map { .milliseconds($0) } ?? database.statusCacheLifetime
        postgres = PostgresStore.Configuration(reader: reader.scoped(to: "database"), defaults: Self.postgresDefaults)
        accessToken = AccessToken(reader: reader.scoped(to: "accessToken"))
        jwks.maxAgeSeconds = reader.int(forKey: "jwks.maxAgeSeconds") ?? jwks.maxAgeSeconds
        refreshToken = RefreshToken(reader: reader.scoped(to: "refreshToken"))
        session.maxLifetimeSeconds = reader.int(forKey: "session.maxLifetimeSeconds") ?? session.maxLifetimeSeconds
        session.maxPerUser = reader.int(forKey: "session.maxPerUser") ?? session.maxPerUser
        registration.enabled = reader.bool(forKey: "registration.enabled") ?? registration.enabled
        account.reauthenticationSeconds =
            reader.int(forKey: "account.reauthenticationSeconds") ?? account.reauthenticationSeconds
        password = Password(reader: reader.scoped(to: "password"))
        rateLimit = RateLimit(reader: reader.scoped(to: "rateLimit"))
        moss = try MossConfiguration(reader: reader.scoped(to: "moss"))
        stream = Stream(reader: reader.scoped(to: "stream"))
        identity = Identity(reader: reader.scoped(to: "identity"))
        email = Email(reader: reader.scoped(to: "email"))
        do {
            integrity = try IntegrityConfiguration(reader: reader.scoped(to: "integrity"))
        } catch {
            throw .invalidValue(key: error.path, source: "configuration", reason: error.reason)
        }
        dpop = DPoP(reader: reader.scoped(to: "dpop"))
        do {
            // `passkeys.androidApps` is a structured section, set after this read (``ConfigurationSection``).
            passkeys = try PasskeyConfiguration(reader: reader.scoped(to: "passkeys"), androidApps: [])
        } catch {
            throw .invalidValue(key: error.path, source: "configuration", reason: error.reason)
        }
        publicURL = reader.optionalString(forKey: "server.publicURL")
        log.level = reader.string(forKey: "log.level").flatMap(Logger.Level.init(rawValue:)) ?? log.level
        log.format = reader.string(forKey: "log.format").flatMap(Log.Format.init(rawValue:)) ?? log.format
        log.healthChecks = reader.bool(forKey: "log.healthChecks") ?? log.healthChecks
    }
}

extension ConfigReader {
    /// An optional string key: `nil` when absent or explicitly unset (empty).
    func optionalString(forKey key: ConfigKey, isSecret: Bool = false) -> String? {
        guard let text = string(forKey: key, isSecret: isSecret), !text.isEmpty else { return nil }
        return text
    }
}

extension TokenServiceConfiguration.AccessToken {
    init(reader: ConfigReader) {
        self.init()
        issuer = reader.string(forKey: "issuer") ?? issuer
        audience = reader.string(forKey: "audience") ?? audience
        ttlSeconds = reader.int(forKey: "ttlSeconds") ?? ttlSeconds
        leewaySeconds = reader.int(forKey: "leewaySeconds") ?? leewaySeconds
        activeKid = reader.optionalString(forKey: "activeKid")
    }
}

extension TokenServiceConfiguration.Identity {
    /// The `identity.*` keys; the providers are the `identityProviders` section (``ConfigurationSection``).
    init(reader: ConfigReader) {
        self.init()
        maxTokenAgeSeconds = reader.int(forKey: "maxTokenAgeSeconds") ?? maxTokenAgeSeconds
        linkVerifiedEmail = reader.bool(forKey: "linkVerifiedEmail") ?? linkVerifiedEmail
        trustedForLinking = reader.stringArray(forKey: "trustedForLinking") ?? trustedForLinking
        requireServerNonce = reader.bool(forKey: "requireServerNonce") ?? requireServerNonce
        maxPendingNonces = reader.int(forKey: "maxPendingNonces") ?? maxPendingNonces
        flowLifetimeSeconds = reader.int(forKey: "flowLifetimeSeconds") ?? flowLifetimeSeconds
        maxPendingFlows = reader.int(forKey: "maxPendingFlows") ?? maxPendingFlows
        maxPendingFlowsPerAddress = reader.int(forKey: "maxPendingFlowsPerAddress") ?? maxPendingFlowsPerAddress
        tokenEncryptionKeyFile = reader.optionalString(forKey: "tokenEncryptionKeyFile")
    }
}

extension TokenServiceConfiguration.RefreshToken {
    init(reader: ConfigReader) {
        self.init()
        ttlSeconds = reader.int(forKey: "ttlSeconds") ?? ttlSeconds
        reuseGraceSeconds = reader.int(forKey: "reuseGraceSeconds") ?? reuseGraceSeconds
        secret = reader.optionalString(forKey: "secret", isSecret: true).map(TokenServiceConfiguration.Secret.init)
    }
}

extension TokenServiceConfiguration.Password {
    init(reader: ConfigReader) {
        self.init()
        minLength = reader.int(forKey: "minLength") ?? minLength
        timeCost = reader.int(forKey: "timeCost") ?? timeCost
        memoryCost = reader.int(forKey: "memoryCost") ?? memoryCost
        maxConcurrentHashes = reader.int(forKey: "maxConcurrentHashes") ?? maxConcurrentHashes
        maxQueuedHashes = reader.int(forKey: "maxQueuedHashes") ?? maxQueuedHashes
    }
}

extension TokenServiceConfiguration.RateLimit {
    init(reader: ConfigReader) {
        self.init()
        loginFailuresPerAccount = reader.int(forKey: "loginFailuresPerAccount") ?? loginFailuresPerAccount
        loginWindowSeconds = reader.int(forKey: "loginWindowSeconds") ?? loginWindowSeconds
        idTokenFailuresPerAddress = reader.int(forKey: "idTokenFailuresPerAddress") ?? idTokenFailuresPerAddress
        requestsPerAddressPerMinute = reader.int(forKey: "requestsPerAddressPerMinute") ?? requestsPerAddressPerMinute
    }
}

extension TokenServiceConfiguration.Stream {
    init(reader: ConfigReader) {
        self.init()
        activeKid = reader.optionalString(forKey: "activeKid")
        ttlSeconds = reader.int(forKey: "ttlSeconds") ?? ttlSeconds
        emailCustomerId = reader.bool(forKey: "emailCustomerId") ?? emailCustomerId
    }
}
