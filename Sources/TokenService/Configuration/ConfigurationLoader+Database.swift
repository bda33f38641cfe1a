public import PostgresStore
import Store

extension ConfigurationLoader {
    /// The keys that name a PostgreSQL database; they exclude `database.path`.
    static let databaseURLKeys: Set<String> = ["database.url", "database.urlFile"]

    /// `database.url` (or `database.urlFile`) and `database.path` exclude each other, whichever layers give them:
    /// a service on PostgreSQL must not quietly fall back to a SQLite file, nor the reverse. A key set to `null`
    /// in the file, or an empty `TOKENVEND_DATABASE_PATH`, is not given (so an image's default path can be
    /// cleared). When a URL is given it must be one libpq accepts, and unless `database.allowUnverifiedTLS` is
    /// true it must not reach a server beyond this host without checking its certificate
    /// (``unverifiedTLSReason(_:environment:)``).
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
        guard let text = configuration.postgres.url?.value else { return }
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
        if !configuration.postgres.allowUnverifiedTLS,
            let reason = unverifiedTLSReason(parsed, environment: environment)
        {
            throw .invalidValue(key: url.key, source: url.source, reason: reason)
        }
    }

    /// Why `url` may not be used unless `database.allowUnverifiedTLS` is true, or nil when it may: it reaches a
    /// server beyond this host (``PostgresURL/reachesServerOnlyLocally(environment:)``) and libpq would not check
    /// that server's certificate (``PostgresURL/verifiesServerCertificate(environment:)``). Names the host and the
    /// `sslmode`, never the password.
    /// - Parameter environment: the process environment (libpq's `PGHOST`, `PGHOSTADDR`, `PGSSLMODE`, `PGSERVICE`).
    public static func unverifiedTLSReason(_ url: PostgresURL, environment: [String: String]) -> String? {
        guard !url.reachesServerOnlyLocally(environment: environment),
            !url.verifiesServerCertificate(environment: environment)
        else { return nil }
        let host = url.host.map { "host \($0)" } ?? "a host given outside the URL"
        let mode = url.sslMode.map { "sslmode=\($0)" } ?? "no sslmode (libpq's default, prefer)"
        return "names \(host), not this machine, with \(mode): the server's certificate is not checked, so anyone "
            + "on the network path could read the password and the data or pose as the database; use "
            + "sslmode=verify-full (with the server's CA in sslrootcert), or set database.allowUnverifiedTLS to true "
            + "on a private network"
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
        guard configuration.postgres.url != nil else { return }
        var missing: [String] = []
        if configuration.accessToken.keys.isEmpty { missing.append("accessToken.keys") }
        if configuration.refreshToken.secret == nil { missing.append("refreshToken.secret") }
        guard !missing.isEmpty else { return }
        throw .invalidValue(
            key: missing.joined(separator: " and "), source: "",
            reason: "must be configured when database.url names a shared database; generated development keys "
                + "differ per host (`tokenvend keys generate` prints a suitable secret)")
    }
}
