import Foundation
import PostgresStore
import SQLiteStore
import Store
import Testing

@testable import TokenService

/// `database.url`, `database.urlFile` and the pool keys: PostgreSQL instead of SQLite, exclusive with
/// `database.path`, never showing a password, and never with per-host development keys.
@Suite struct ConfigurationDatabaseTests {
    static let url = "postgres://tokenvend:pa55word-s3cret@db.example:5432/tokenvend?sslmode=verify-full"
    static let keys: [String: String] = [
        "TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"k1","secret":"\#(strongSecret)"}]"#,
        "TOKENVEND_REFRESH_TOKEN_SECRET": otherStrongSecret,
    ]

    @Test("database.url selects PostgreSQL with the pool keys' defaults; SQLite keeps its path otherwise")
    func urlSelectsPostgres() throws {
        let fixture = try ConfigurationFixture()
        let sqlite = try fixture.resolve()
        #expect(sqlite.postgres.url.isEmpty)
        #expect(StoreOpener.postgresConfiguration(sqlite) == nil)
        let configuration = try fixture.resolve(environment: ["TOKENVEND_DATABASE_URL": Self.url])
        let store = try #require(StoreOpener.postgresConfiguration(configuration))
        #expect(store.url == Self.url)
        #expect(store.poolSize == 8)
        #expect(store.connectTimeout == .seconds(5))
        #expect(store.queryTimeout == .seconds(5))
        #expect(store.lockTimeout == .seconds(2))
        #expect(store.acquireTimeout == .seconds(2))
        #expect(store.statusCacheLifetime == .seconds(1))
        #expect(store.clock == .database)
    }

    @Test("the pool keys are read from every layer and checked against their ranges")
    func poolKeys() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write(
            "c.json", #"{"database": {"url": "\#(Self.url)", "poolSize": 16, "lockTimeoutMilliseconds": 500}}"#)
        let configuration = try fixture.resolve(
            file: file,
            environment: [
                "TOKENVEND_DATABASE_QUERY_TIMEOUT_MILLISECONDS": "1500",
                "TOKENVEND_DATABASE_CONNECT_TIMEOUT_SECONDS": "3",
                "TOKENVEND_DATABASE_ACQUIRE_TIMEOUT_MILLISECONDS": "250",
                "TOKENVEND_DATABASE_STATUS_CACHE_LIFETIME_MILLISECONDS": "0",
            ])
        let store = try #require(StoreOpener.postgresConfiguration(configuration))
        #expect(store.poolSize == 16)
        #expect(store.lockTimeout == .milliseconds(500))
        #expect(store.queryTimeout == .milliseconds(1500))
        #expect(store.connectTimeout == .seconds(3))
        #expect(store.acquireTimeout == .milliseconds(250))
        #expect(store.statusCacheLifetime == .zero)
        #expect(
            fixture.error(environment: ["TOKENVEND_DATABASE_POOL_SIZE": "65"])?.description
                == "database.poolSize (TOKENVEND_DATABASE_POOL_SIZE): expected an integer from 1 to 64, got 65")
        #expect(fixture.error(environment: ["TOKENVEND_DATABASE_POOL_SIZE": "0"]) != nil)
    }

    @Test("database.migrateOnStart defaults to true and is read from the file and the environment")
    func migrateOnStart() throws {
        let fixture = try ConfigurationFixture()
        let defaults = try fixture.resolve(environment: ["TOKENVEND_DATABASE_URL": Self.url])
        #expect(try #require(StoreOpener.postgresConfiguration(defaults)).migrate)
        let file = try fixture.write("m.json", #"{"database": {"url": "\#(Self.url)", "migrateOnStart": false}}"#)
        #expect(try #require(StoreOpener.postgresConfiguration(try fixture.resolve(file: file))).migrate == false)
        let environment = try fixture.resolve(environment: [
            "TOKENVEND_DATABASE_URL": Self.url, "TOKENVEND_DATABASE_MIGRATE_ON_START": "false",
        ])
        #expect(try #require(StoreOpener.postgresConfiguration(environment)).migrate == false)
        #expect(fixture.error(environment: ["TOKENVEND_DATABASE_MIGRATE_ON_START": "sometimes"]) != nil)
    }

    @Test("database.statusCacheLifetimeMilliseconds sets SQLite's status cache too")
    func statusCacheOnSQLite() throws {
        let fixture = try ConfigurationFixture()
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_DATABASE_STATUS_CACHE_LIFETIME_MILLISECONDS": "250"
        ])
        #expect(configuration.database.statusCacheLifetime == .milliseconds(250))
        #expect(try fixture.resolve().database.statusCacheLifetime == .seconds(1))
    }

    @Test("database.urlFile reads the URL from a file, trimmed of its trailing newline")
    func urlFile() throws {
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("database_url", Self.url + "\n")
        let configuration = try fixture.resolve(environment: ["TOKENVEND_DATABASE_URL_FILE": path])
        #expect(configuration.postgres.url == Self.url)
        #expect(
            fixture.error(environment: ["TOKENVEND_DATABASE_URL_FILE": fixture.folder + "/missing"])?.description
                == "database.urlFile (TOKENVEND_DATABASE_URL_FILE): cannot read secret file \"\(fixture.folder)/missing\": no such file"
        )
        #expect(
            fixture.error(environment: ["TOKENVEND_DATABASE_URL_FILE": fixture.folder])?.description
                == "database.urlFile (TOKENVEND_DATABASE_URL_FILE): cannot read secret file \"\(fixture.folder)\": not a readable file"
        )
        let both = fixture.error(environment: ["TOKENVEND_DATABASE_URL_FILE": path, "TOKENVEND_DATABASE_URL": Self.url])
        #expect(both?.description.contains("give either database.url or database.urlFile, not both") == true)
    }

    /// File text, environment, flags, and the expected message (`FILE` stands for the file's path).
    static let conflicts: [(String, [String: String], ConfigurationOverrides, String)] = [
        (
            "{}", ["TOKENVEND_DATABASE_URL": url], ConfigurationOverrides(databasePath: "x.sqlite"),
            "database.url (TOKENVEND_DATABASE_URL): excludes database.path (--database); give a PostgreSQL URL "
                + "or a SQLite path, not both"
        ),
        (
            #"{"database": {"path": "data/t.sqlite"}}"#, ["TOKENVEND_DATABASE_URL": url], ConfigurationOverrides(),
            "database.url (TOKENVEND_DATABASE_URL): excludes database.path (FILE); give a PostgreSQL URL or a "
                + "SQLite path, not both"
        ),
        (
            #"{"database": {"url": "\#(url)"}}"#, ["TOKENVEND_DATABASE_PATH": "data/t.sqlite"],
            ConfigurationOverrides(),
            "database.url (FILE): excludes database.path (TOKENVEND_DATABASE_PATH); give a PostgreSQL URL or a "
                + "SQLite path, not both"
        ),
    ]

    @Test("database.url and database.path exclude each other, naming both keys and their sources", arguments: 0..<3)
    func exclusive(index: Int) throws {
        let (file, environment, flags, message) = Self.conflicts[index]
        let fixture = try ConfigurationFixture()
        let path = try fixture.write("c.json", file)
        let error = try #require(fixture.error(file: path, environment: environment, overrides: flags))
        #expect(error.description == message.replacing("FILE", with: path))
        #expect(!error.description.contains("pa55word"))
        #expect(!error.description.contains("\n"))
    }

    @Test("a null database.path in the file or an empty TOKENVEND_DATABASE_PATH gives way to database.url")
    func pathUnset() throws {
        let fixture = try ConfigurationFixture()
        let file = try fixture.write("c.json", #"{"database": {"path": null}}"#)
        let fromFile = try fixture.resolve(file: file, environment: ["TOKENVEND_DATABASE_URL": Self.url])
        #expect(fromFile.postgres.url == Self.url)
        let cleared = try fixture.resolve(
            environment: ["TOKENVEND_DATABASE_URL": Self.url, "TOKENVEND_DATABASE_PATH": ""])
        #expect(cleared.postgres.url == Self.url)
        // database.path keeps its default when no URL is given.
        #expect(
            try fixture.resolve(environment: ["TOKENVEND_DATABASE_PATH": ""]).database.path == "data/tokenvend.sqlite")
    }

    @Test(
        "a URL that is not PostgreSQL's is refused without echoing it",
        arguments: ["mysql://root:pa55word-s3cret@db/tokenvend", "postgres://u:pa55word-s3cret@db/x?nosuchoption=1"])
    func invalidURL(url: String) throws {
        let fixture = try ConfigurationFixture()
        let error = try #require(fixture.error(environment: ["TOKENVEND_DATABASE_URL": url]))
        #expect(error.description.hasPrefix("database.url (TOKENVEND_DATABASE_URL): "))
        #expect(!error.description.contains("pa55word"))
        #expect(!error.description.contains("root"))
    }

    /// The reason a URL to `host` with `mode` (e.g. `sslmode=require`) is refused.
    static func unverifiedReason(host: String, mode: String) -> String {
        "names host \(host), not this machine, with \(mode): the server's certificate is not checked, so anyone on "
            + "the network path could read the password and the data or pose as the database; use "
            + "sslmode=verify-full (with the server's CA in sslrootcert), or set database.allowUnverifiedTLS to true "
            + "on a private network"
    }

    @Test(
        "a database URL to another host without a checked certificate refuses to start, naming key, host and sslmode",
        arguments: [
            ("postgres://u:pa55word-s3cret@10.0.0.5/db", "10.0.0.5", "no sslmode (libpq's default, prefer)"),
            ("postgres://u:pa55word-s3cret@10.0.0.5/db?sslmode=require", "10.0.0.5", "sslmode=require"),
            ("postgres://u:pa55word-s3cret@db.example/db?sslmode=prefer", "db.example", "sslmode=prefer"),
            (
                "postgres://u:pa55word-s3cret@localhost.evil.com/db?sslmode=disable", "localhost.evil.com",
                "sslmode=disable"
            ),
        ])
    func unverifiedTLSRefused(url: String, host: String, mode: String) throws {
        let fixture = try ConfigurationFixture()
        var environment = Self.keys
        environment["TOKENVEND_DATABASE_URL"] = url
        let error = try #require(fixture.error(environment: environment))
        #expect(
            error.description
                == "database.url (TOKENVEND_DATABASE_URL): " + Self.unverifiedReason(host: host, mode: mode))
        #expect(!error.description.contains("pa55word"))
        // `load`, which `tokenvend serve` calls, refuses it too, and so does a URL read from a file.
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.load(environment: environment, defaultConfigPath: fixture.noFile)
        }
        let file = try fixture.write("c.json", #"{"database": {"url": "\#(url)"}}"#)
        let fromFile = try #require(fixture.error(file: file, environment: Self.keys))
        #expect(fromFile.description == "database.url (\(file)): " + Self.unverifiedReason(host: host, mode: mode))
    }

    @Test(
        "database.allowUnverifiedTLS lets such a URL start, from the file or the environment; it defaults to false")
    func unverifiedTLSAllowed() throws {
        let fixture = try ConfigurationFixture()
        let url = "postgres://tokenvend@10.0.0.5/tokenvend?sslmode=require"
        #expect(try fixture.resolve().postgres.allowUnverifiedTLS == false)
        let environment = try fixture.resolve(environment: [
            "TOKENVEND_DATABASE_URL": url, "TOKENVEND_DATABASE_ALLOW_UNVERIFIED_TLS": "true",
        ])
        #expect(environment.postgres.allowUnverifiedTLS)
        #expect(environment.postgres.url == url)
        let file = try fixture.write("c.json", #"{"database": {"url": "\#(url)", "allowUnverifiedTLS": true}}"#)
        #expect(try fixture.resolve(file: file).postgres.url == url)
        // An explicit false is the default's refusal.
        let refused = fixture.error(environment: [
            "TOKENVEND_DATABASE_URL": url, "TOKENVEND_DATABASE_ALLOW_UNVERIFIED_TLS": "false",
        ])
        #expect(refused?.description.contains("database.allowUnverifiedTLS") == true)
    }

    @Test(
        "a URL to this host (socket, localhost, loopback) or with sslmode verify-full or verify-ca starts as it is",
        arguments: [
            "postgres://tokenvend@/tokenvend", "postgres://tokenvend@/tokenvend?host=/var/run/postgresql",
            "postgres://tokenvend@localhost/tokenvend", "postgres://tokenvend@127.1.2.3:5432/tokenvend",
            "postgres://tokenvend@[::1]/tokenvend?sslmode=disable",
            "postgres://tokenvend@10.0.0.5/tokenvend?sslmode=verify-full",
            "postgres://tokenvend@db.example/tokenvend?sslmode=verify-ca&sslrootcert=/etc/ssl/db.pem",
        ])
    func verifiedOrLocalStarts(url: String) throws {
        let fixture = try ConfigurationFixture()
        #expect(try fixture.resolve(environment: ["TOKENVEND_DATABASE_URL": url]).postgres.url == url)
    }

    @Test("what the URL leaves out is decided with libpq's PGHOST and PGSSLMODE, as libpq will connect")
    func libpqEnvironment() throws {
        let fixture = try ConfigurationFixture()
        let bare = "postgres://tokenvend@/tokenvend"
        let refused = fixture.error(environment: ["TOKENVEND_DATABASE_URL": bare, "PGHOST": "db.example"])
        #expect(
            refused?.description.hasPrefix(
                "database.url (TOKENVEND_DATABASE_URL): names a host given outside the URL, not this machine, with no "
                    + "sslmode (libpq's default, prefer): ") == true)
        #expect(
            !(try fixture.resolve(environment: ["TOKENVEND_DATABASE_URL": bare, "PGHOST": "/tmp"]).postgres.url.isEmpty)
        )
        let verified = try fixture.resolve(environment: [
            "TOKENVEND_DATABASE_URL": bare, "PGHOST": "db.example", "PGSSLMODE": "verify-full",
        ])
        #expect(verified.postgres.url == bare)
    }

    @Test("the configuration's description never shows the URL's password")
    func redacted() throws {
        let fixture = try ConfigurationFixture()
        let configuration = try fixture.resolve(environment: ["TOKENVEND_DATABASE_URL": Self.url])
        #expect(configuration.postgres.redactedURL == "postgres://tokenvend@db.example:5432/tokenvend")
        for text in ["\(configuration)", "\(configuration.postgres)", String(reflecting: configuration)] {
            #expect(!text.contains("pa55word"))
        }
        #expect("\(configuration.postgres)".contains("postgres://tokenvend@db.example:5432/tokenvend"))
    }

    @Test(
        "with a shared database, generated development keys are refused, naming the missing keys",
        arguments: [
            ([String: String](), "accessToken.keys and refreshToken.secret"),
            (["TOKENVEND_REFRESH_TOKEN_SECRET": strongSecret], "accessToken.keys"),
            (["TOKENVEND_ACCESS_TOKEN_KEYS": #"[{"kid":"k1","secret":"\#(strongSecret)"}]"#], "refreshToken.secret"),
        ])
    func developmentKeysRefused(given: [String: String], missing: String) throws {
        let fixture = try ConfigurationFixture()
        var environment = given
        environment["TOKENVEND_DATABASE_URL"] = Self.url
        do {
            _ = try ConfigurationLoader.load(environment: environment, defaultConfigPath: fixture.noFile)
            Issue.record("loaded with development keys on a shared database")
        } catch {
            #expect(
                error.description.hasPrefix("\(missing): must be configured when database.url names a shared database"))
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("pa55word"))
        }
    }

    @Test("with a shared database and configured keys, loading uses them and notes nothing")
    func sharedDatabaseLoads() throws {
        let fixture = try ConfigurationFixture()
        var environment = Self.keys
        environment["TOKENVEND_DATABASE_URL"] = Self.url
        environment["TOKENVEND_DATABASE_PATH"] = ""
        let loaded = try ConfigurationLoader.load(environment: environment, defaultConfigPath: fixture.noFile)
        #expect(loaded.notes.isEmpty)
        #expect(loaded.configuration.postgres.url == Self.url)
        #expect(loaded.configuration.accessToken.activeKey?.kid == "k1")
        #expect(loaded.configuration.refreshToken.secret?.value == otherStrongSecret)
    }
}
