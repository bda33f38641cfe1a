/// One store, whichever database holds it: what the server, the session purger and the CLI need.
///
/// `SQLiteStore` is the embedded default (one instance); `PostgresStore` is shared by several instances.
public protocol StoreBackend: Sendable {
    /// Users and their customer ids.
    var users: any UserStoring { get }
    /// Sessions and refresh-token rotation.
    var sessions: any SessionStoring { get }
    /// Identities at Apple, Google and other providers, and the ID-token replay guard.
    var identities: any IdentityStoring { get }
    /// Browser sign-in flows and one-time authorization codes (transient; not copied by `tokenvend db copy`).
    var oauth: any OAuthFlowStoring { get }
    /// Email codes and the outbox of messages waiting for delivery (transient; not copied by `tokenvend db copy`).
    var email: any EmailStoring { get }
    /// App-integrity challenges and App Attest keys (issue 34; the keys are copied by `tokenvend db copy`, the
    /// challenges are transient).
    var integrity: any IntegrityStoring { get }
    /// The DPoP proof ids seen within their window, shared by every instance (PostgreSQL), or nil when they stay
    /// in process memory (SQLite: one instance).
    var dpopProofs: (any DPoPProofStoring)? { get }
    /// Passkeys, the accounts' user handles and the ceremony challenges (issue 36; `tokenvend db copy` copies the
    /// passkeys and handles, not the challenges).
    var passkeys: any PasskeyStoring { get }
    /// Shared rate-limit counters, or nil when the counters stay in process memory (SQLite: one instance).
    var rateLimits: (any RateLimitCounters)? { get }
    /// Whether several instances may share this store (PostgreSQL). Such a store refuses per-host generated
    /// development keys: every instance must sign and check with the same configured keys.
    var isShared: Bool { get }
    /// A description for logs and `tokenvend db status` that never contains a password
    /// (`sqlite:data/tokenvend.sqlite`, `postgres://tokenvend@db:5432/tokenvend`).
    var displayName: String { get }

    /// Whether the database answers (`GET /readyz`).
    /// - Throws: `.unavailable` (unreachable, closed, timed out), `.corrupt`.
    func ping() async throws(StoreError)

    /// The schema version found and the latest this code knows (`tokenvend db status`).
    func schemaVersion() async throws(StoreError) -> SchemaVersion

    /// Closes every connection; later calls throw `.unavailable(.closed)`.
    func close()
}

/// The schema version of a store.
public struct SchemaVersion: Sendable, Equatable {
    /// The version recorded in the database.
    public var found: Int
    /// The last migration this code knows.
    public var known: Int

    /// Creates a version pair.
    public init(found: Int, known: Int) {
        self.found = found
        self.known = known
    }
}
