internal import CLibPQ
public import Store

/// A PostgreSQL connection URL (`postgres://user[:password]@host:port/database?sslmode=…`), checked by libpq's
/// own parser, with a form that is safe to show.
///
/// `description` is the redacted form, so interpolating a URL into a log line or an error never shows its
/// password.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given (with its password, if any): passed to libpq only.
    let text: String
    /// The user name, or nil (libpq then uses the operating-system user).
    public let user: String?
    /// The host (a name, an address, or a socket folder), or nil for libpq's default.
    public let host: String?
    /// The port, or nil for libpq's default (5432).
    public let port: String?
    /// The database name, or nil (libpq then uses the user name).
    public let database: String?
    /// Whether the URL carries a password.
    public let hasPassword: Bool
    /// What the URL says about where and how libpq connects (`host`, `hostaddr`, `sslmode`, `service`), for
    /// ``reachesServerOnlyLocally(environment:)`` and ``verifiesServerCertificate(environment:)``.
    let connectionOptions: [String: String]

    /// Parses `text`.
    /// - Throws: `.misuse` when it is not a `postgres://` or `postgresql://` URL libpq accepts; the message never
    ///   repeats the URL.
    public init(_ text: String) throws(StoreError) {
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") else {
            throw .misuse("database.url must start with postgres:// or postgresql://")
        }
        var options: [String: String] = [:]
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = unsafe PQconninfoParse(text, &error) else {
            // libpq's message may quote parts of the URL: keep it out of the error.
            unsafe PQfreemem(error)
            throw .misuse("database.url is not a valid PostgreSQL URL")
        }
        var option = unsafe parsed
        while let keyword = unsafe option.pointee.keyword {
            if let value = unsafe option.pointee.val {
                unsafe options[String(cString: keyword)] = String(cString: value)
            }
            unsafe option += 1
        }
        unsafe PQconninfoFree(parsed)
        self.text = text
        user = options["user"]
        host = options["host"] ?? options["hostaddr"]
        port = options["port"]
        database = options["dbname"]
        hasPassword = !(options["password"] ?? "").isEmpty
        connectionOptions = options.filter { Self.connectionKeywords.contains($0.key) }
    }

    /// `postgres://user@host:port/database`: the URL without its password and query (which may carry one too).
    public var redacted: String {
        var result = "postgres://"
        if let user { result += user + "@" }
        result += host ?? ""
        if let port { result += ":" + port }
        if let database { result += "/" + database }
        return result
    }

    /// The redacted form.
    public var description: String { redacted }
}
