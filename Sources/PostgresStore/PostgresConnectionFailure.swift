import Synchronization

/// Why a PostgreSQL connection could not be opened, in a few classes an operator can act on. Requests still get
/// `StoreError.unavailable(.unreachable)` (503); the class goes to the log and to `tokenvend db status|migrate`.
/// Never holds libpq's message (it may name hosts and users): only the class.
public enum PostgresConnectionFailure: String, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the login (SQLSTATE 28P01 / 28000): wrong password or user, or `pg_hba.conf`.
    case authenticationFailed
    /// The database named in the URL does not exist (3D000).
    case databaseMissing
    /// TLS could not be negotiated or verified (`sslmode`, certificates).
    case tls
    /// Nothing listens at the host and port (ECONNREFUSED).
    case connectionRefused
    /// No answer within the connect timeout.
    case timedOut
    /// Anything else (an unknown host, too many connections, a server shutting down, …).
    case other

    /// Words for a log line or the terminal, e.g. "authentication failed".
    public var description: String {
        switch self {
        case .authenticationFailed: "authentication failed"
        case .databaseMissing: "database does not exist"
        case .tls: "TLS negotiation failed"
        case .connectionRefused: "connection refused"
        case .timedOut: "timed out"
        case .other: "connection failed"
        }
    }

    /// The class of libpq's connection error message (`PQerrorMessage`), or of a missed deadline. libpq gives no
    /// SQLSTATE for a failed connection, so the message is matched; the server's part is English unless its
    /// `lc_messages` says otherwise, and then the class is `.other`.
    static func classify(message: String, deadlinePassed: Bool) -> PostgresConnectionFailure {
        let text = message.lowercased()
        if text.contains("password authentication failed") || text.contains("authentication failed")
            || text.contains("no pg_hba.conf entry") || text.contains("role \"") && text.contains("does not exist")
        {
            return .authenticationFailed
        }
        if text.contains("database \"") && text.contains("does not exist") { return .databaseMissing }
        if text.contains("ssl") || text.contains("tls") || text.contains("certificate") { return .tls }
        if text.contains("connection refused") { return .connectionRefused }
        if deadlinePassed || text.contains("timeout expired") || text.contains("timed out") { return .timedOut }
        return .other
    }
}

/// Reports connection failures to a sink at most once per database (redacted URL) and class per interval in this
/// process, whichever store or connection (pool, listener, ping) failed, so a database that is down does not fill
/// the log. Safe from any thread.
final class PostgresConnectionFailureLog: Sendable {
    private let sink: @Sendable (String) -> Void
    private let classes: (@Sendable (PostgresConnectionFailure) -> Void)?
    private let url: String
    private let interval: Duration
    /// When each (redacted URL, class) was last reported, for the whole process.
    private static let last = Mutex<[String: ContinuousClock.Instant]>([:])

    init(url: PostgresURL, interval: Duration = .seconds(60), sink: @escaping @Sendable (String) -> Void) {
        self.url = url.redacted
        self.interval = interval
        self.sink = sink
        classes = nil
    }

    /// Hands every failure's class to `classes` (not rate-limited): for a one-off diagnosis.
    init(url: PostgresURL, classes: @escaping @Sendable (PostgresConnectionFailure) -> Void) {
        self.url = url.redacted
        interval = .zero
        sink = { _ in }
        self.classes = classes
    }

    func report(_ failure: PostgresConnectionFailure) {
        classes?(failure)
        let now = ContinuousClock.now
        guard classes == nil else { return }
        let key = url + " " + failure.rawValue
        let due = Self.last.withLock { (last: inout [String: ContinuousClock.Instant]) -> Bool in
            if let previous = last[key], previous.duration(to: now) < interval { return false }
            last[key] = now
            return true
        }
        if due { sink("cannot connect to PostgreSQL at \(url): \(failure)") }
    }
}
