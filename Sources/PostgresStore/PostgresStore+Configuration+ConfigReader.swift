package import Configuration

extension PostgresStore.Configuration {
    /// A configuration read from `reader`, each key left out keeping its value in `defaults`.
    ///
    /// Keys, relative to the reader (tokenvend scopes it to `database`): `url` (string, secret; empty: no
    /// PostgreSQL), `poolSize`, `connectTimeoutSeconds`, `queryTimeoutMilliseconds`, `lockTimeoutMilliseconds`,
    /// `acquireTimeoutMilliseconds`, `statusCacheLifetimeMilliseconds` (integers), `migrateOnStart` and
    /// `allowUnverifiedTLS` (Booleans). `clock` is not read.
    ///
    /// ```swift
    /// let postgres = PostgresStore.Configuration(reader: reader.scoped(to: "database"), defaults: .init(url: ""))
    /// ```
    /// Package access on purpose: the optional readers used here fall back to the default on a value of the
    /// wrong type, which is safe only behind tokenvend's loader (`ConfigurationLoader`), whose providers hold
    /// values already checked against the key table (`ConfigurationReaderTests.everyKeyReadWithItsType`).
    package init(reader: ConfigReader, defaults: Self) {
        self = defaults
        url = reader.string(forKey: "url", isSecret: true) ?? url
        poolSize = reader.int(forKey: "poolSize") ?? poolSize
        connectTimeout = reader.int(forKey: "connectTimeoutSeconds").map { .seconds($0) } ?? connectTimeout
        queryTimeout = reader.int(forKey: "queryTimeoutMilliseconds").map { .milliseconds($0) } ?? queryTimeout
        lockTimeout = reader.int(forKey: "lockTimeoutMilliseconds").map { .milliseconds($0) } ?? lockTimeout
        acquireTimeout = reader.int(forKey: "acquireTimeoutMilliseconds").map { .milliseconds($0) } ?? acquireTimeout
        statusCacheLifetime =
            reader.int(forKey: "statusCacheLifetimeMilliseconds").map { .milliseconds($0) } ?? statusCacheLifetime
        migrate = reader.bool(forKey: "migrateOnStart") ?? migrate
        allowUnverifiedTLS = reader.bool(forKey: "allowUnverifiedTLS") ?? allowUnverifiedTLS
    }
}
