import PostgresStore
import Store
import StrictJSON

extension ConfigurationLoader {
    /// The keys that name a PostgreSQL database; they exclude `database.path`.
    static let databaseURLKeys: Set<String> = ["database.url", "database.urlFile"]

    /// `database.url` (or `database.urlFile`) and `database.path` exclude each other, whichever layers give them:
    /// a service on PostgreSQL must not quietly fall back to a SQLite file, nor the reverse. A key set to `null`
    /// in the file, or an empty `TOKENVEND_DATABASE_PATH`, is not given (so an image's default path can be
    /// cleared). When a URL is given it must be one libpq accepts, and unless `database.allowUnverifiedTLS` is
    /// true it must not reach a server beyond this host without checking its certificate
    /// (`PostgresURL.unverifiedTLSReason(environment:)`).
    ///
    /// - Parameters:
    ///   - layers: the entries of each layer, lowest precedence first (file, environment, flags).
    ///   - environment: the process environment, for the `PG…` variables libpq reads.
    /// - Throws: ``ConfigurationError/invalidValue`` naming both keys and their sources, or the URL key and its
    ///   source (never the URL: it may hold a password).
    static func checkDatabaseChoice(
        layers: [[Entry]], configuration: TokenServiceConfiguration, environment: [String: String]
    ) throws(ConfigurationError) {
        let url = winner(of: databaseURLKeys, in: layers)
        let path = winner(of: ["database.path"], in: layers)
        guard let url else { return }
        if let path {
            throw .invalidValue(
                key: url.key, source: url.source,
                reason: "excludes database.path (\(path.source)); give a PostgreSQL URL or a SQLite path, not both")
        }
        let text = configuration.postgres.url
        guard !text.isEmpty else { return }
        let parsed: PostgresURL
        do {
            parsed = try PostgresURL(text)
        } catch {
            let reason: String
            if case .misuse(let message) = error {
                // PostgresURL's messages name the key, never the URL; keep only what follows the key.
                reason = message.replacing("database.url ", with: "")
            } else {
                reason = "is not a valid PostgreSQL URL"
            }
            throw .invalidValue(key: url.key, source: url.source, reason: reason)
        }
        if !configuration.postgres.allowUnverifiedTLS, let reason = parsed.unverifiedTLSReason(environment: environment)
        {
            throw .invalidValue(key: url.key, source: url.source, reason: reason)
        }
    }

    /// The entry that decides `keys` (the highest layer that gives one of them), or nil when none does or the
    /// deciding one unsets it (`null`).
    private static func winner(of keys: Set<String>, in layers: [[Entry]]) -> Entry? {
        var decided: Entry?
        for layer in layers {
            let given = layer.filter { keys.contains($0.key) }
            guard !given.isEmpty else { continue }
            decided = given.first { $0.value != .null } ?? given[0]
        }
        guard let decided, decided.value != .null else { return nil }
        return decided
    }

    /// Refuses per-host development keys on a shared database: every instance must sign and check with the same
    /// configured keys, or a token issued by one is refused by the next.
    /// - Throws: ``ConfigurationError/invalidValue`` naming the missing keys.
    static func refuseDevelopmentKeysOnSharedDatabase(
        _ configuration: TokenServiceConfiguration
    ) throws(ConfigurationError) {
        guard !configuration.postgres.url.isEmpty else { return }
        var missing: [String] = []
        if configuration.accessToken.keys.isEmpty { missing.append("accessToken.keys") }
        if configuration.refreshToken.secret == nil { missing.append("refreshToken.secret") }
        if configuration.dpop.requireNonce, configuration.dpop.nonceSecret == nil { missing.append("dpop.nonceSecret") }
        guard !missing.isEmpty else { return }
        throw .invalidValue(
            key: missing.joined(separator: " and "), source: "",
            reason: "must be configured when database.url names a shared database; generated development keys "
                + "differ per host (`tokenvend keys generate` prints a suitable secret)")
    }
}
