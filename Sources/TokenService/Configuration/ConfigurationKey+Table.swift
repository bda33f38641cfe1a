import HTTPServer
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ConfigurationKey {
    /// Every key the configuration knows, in file order. Ranges here are the documented bounds.
    static var all: [ConfigurationKey] {
        let day = 86_400
        return [
            string("server.host", \.server.host),
            integer("server.port", \.server.port, 0...65_535),
            integer("server.maxConnections", \.server.maxConnections, 1...1_000_000),
            integer("server.maxHeaderBytes", \.server.maxHeaderBytes, 1_024...1_048_576),
            integer("server.maxBodyBytes", \.server.maxBodyBytes, 1...67_108_864),
            integer("server.maxTargetBytes", \.server.maxTargetBytes, 16...1_048_576),
            integer("server.headerTimeoutSeconds", \.server.headerTimeoutSeconds, 1...3_600),
            integer("server.requestTimeoutSeconds", \.server.requestTimeoutSeconds, 1...3_600),
            integer("server.bodyIdleTimeoutSeconds", \.server.bodyIdleTimeoutSeconds, 1...3_600),
            integer("server.writeTimeoutSeconds", \.server.writeTimeoutSeconds, 1...3_600),
            integer("server.idleTimeoutSeconds", \.server.idleTimeoutSeconds, 1...day),
            integer("server.shutdownGraceSeconds", \.server.shutdownGraceSeconds, 0...3_600),
            cidrList("server.trustedProxies", \.server.trustedProxies),
            string("database.path", \.database.path),
            string("accessToken.issuer", \.accessToken.issuer),
            string("accessToken.audience", \.accessToken.audience),
            integer("accessToken.ttlSeconds", \.accessToken.ttlSeconds, 1...day),
            integer("accessToken.leewaySeconds", \.accessToken.leewaySeconds, 0...300),
            keyList("accessToken.keys", \.accessToken.keys),
            optionalString("accessToken.activeKid", \.accessToken.activeKid),
            integer("refreshToken.ttlSeconds", \.refreshToken.ttlSeconds, 60...(366 * day)),
            integer("refreshToken.reuseGraceSeconds", \.refreshToken.reuseGraceSeconds, 0...300),
            secret("refreshToken.secret", \.refreshToken.secret),
            secretFile("refreshToken.secretFile", \.refreshToken.secret),
            integer("session.maxLifetimeSeconds", \.session.maxLifetimeSeconds, 60...(3_660 * day)),
            integer("session.maxPerUser", \.session.maxPerUser, 1...10_000),
            boolean("registration.enabled", \.registration.enabled),
            integer("password.minLength", \.password.minLength, 8...128),
            integer("password.timeCost", \.password.timeCost, 1...10),
            integer("password.memoryCost", \.password.memoryCost, 8_192...1_048_576),
            integer("password.maxConcurrentHashes", \.password.maxConcurrentHashes, 1...1_024),
            integer("password.maxQueuedHashes", \.password.maxQueuedHashes, 0...100_000),
            integer("rateLimit.loginFailuresPerAccount", \.rateLimit.loginFailuresPerAccount, 1...1_000),
            integer("rateLimit.loginWindowSeconds", \.rateLimit.loginWindowSeconds, 1...day),
            integer("rateLimit.requestsPerAddressPerMinute", \.rateLimit.requestsPerAddressPerMinute, 1...1_000_000),
            optionalString("moss.projectId", \.moss.projectId),
            secret("moss.projectKey", \.moss.projectKey),
            secretFile("moss.projectKeyFile", \.moss.projectKey),
            url("moss.authURL", \.moss.authURL),
            keyList("stream.keys", \.stream.keys),
            optionalString("stream.activeKid", \.stream.activeKid),
            integer("stream.ttlSeconds", \.stream.ttlSeconds, 1...day),
            boolean("stream.emailCustomerId", \.stream.emailCustomerId),
            logLevel("log.level"),
            logFormat("log.format"),
        ]
    }

    typealias Path<Value> = WritableKeyPath<TokenServiceConfiguration, Value>

    /// A key whose checked value is stored at `keyPath`; `.null` stores the built-in default.
    private static func key<Value>(
        _ path: String, _ kind: Kind, _ keyPath: Path<Value>,
        check: @escaping (ConfigurationValueCheck, ConfigurationValue) throws(ConfigurationError) -> Value
    ) -> ConfigurationKey {
        ConfigurationKey(path: path, kind: kind) { configuration, value, source throws(ConfigurationError) in
            if value == .null {
                configuration[keyPath: keyPath] = TokenServiceConfiguration()[keyPath: keyPath]
            } else {
                configuration[keyPath: keyPath] = try check(ConfigurationValueCheck(key: path, source: source), value)
            }
        }
    }

    static func integer(_ path: String, _ keyPath: Path<Int>, _ range: ClosedRange<Int>) -> ConfigurationKey {
        key(path, .integer(range), keyPath) { check, value throws(ConfigurationError) in
            try check.integer(value, in: range)
        }
    }

    static func boolean(_ path: String, _ keyPath: Path<Bool>) -> ConfigurationKey {
        key(path, .boolean, keyPath) { check, value throws(ConfigurationError) in try check.boolean(value) }
    }

    static func string(_ path: String, _ keyPath: Path<String>) -> ConfigurationKey {
        key(path, .string, keyPath) { check, value throws(ConfigurationError) in try check.string(value) }
    }

    static func optionalString(_ path: String, _ keyPath: Path<String?>) -> ConfigurationKey {
        key(path, .optionalString, keyPath) { check, value throws(ConfigurationError) in try check.string(value) }
    }

    static func url(_ path: String, _ keyPath: Path<URL>) -> ConfigurationKey {
        key(path, .url, keyPath) { check, value throws(ConfigurationError) in try check.url(value) }
    }

    static func secret(_ path: String, _ keyPath: Path<TokenServiceConfiguration.Secret?>) -> ConfigurationKey {
        key(path, .secret, keyPath) { check, value throws(ConfigurationError) in
            TokenServiceConfiguration.Secret(try check.secret(value))
        }
    }

    /// `…File` twin of a secret key: the trimmed contents of the named file are stored at `keyPath`.
    static func secretFile(_ path: String, _ keyPath: Path<TokenServiceConfiguration.Secret?>) -> ConfigurationKey {
        key(path, .secretFile, keyPath) { check, value throws(ConfigurationError) in
            try check.secretFile(at: try check.string(value))
        }
    }

    static func keyList(_ path: String, _ keyPath: Path<[TokenServiceConfiguration.SigningKey]>) -> ConfigurationKey {
        key(path, .keyList, keyPath) { check, value throws(ConfigurationError) in try check.signingKeys(value) }
    }

    static func cidrList(_ path: String, _ keyPath: Path<[CIDR]>) -> ConfigurationKey {
        key(path, .cidrList, keyPath) { check, value throws(ConfigurationError) in try check.cidrList(value) }
    }

    static func logLevel(_ path: String) -> ConfigurationKey {
        let names = Logger.Level.allCases.map(\.rawValue)
        return key(path, .choice(names), \.log.level) { check, value throws(ConfigurationError) in
            Logger.Level(rawValue: try check.choice(value, of: names)) ?? .info
        }
    }

    static func logFormat(_ path: String) -> ConfigurationKey {
        let names = TokenServiceConfiguration.Log.Format.allCases.map(\.rawValue)
        return key(path, .choice(names), \.log.format) { check, value throws(ConfigurationError) in
            TokenServiceConfiguration.Log.Format(rawValue: try check.choice(value, of: names)) ?? .json
        }
    }
}
