public import Store

/// The embedded backend: a SQLite `Database` and its user and session stores. One instance (several
/// processes on one host may share the file: the CLI next to the server).
///
/// ```swift
/// let store = try SQLiteStore(configuration: .init(path: "data/tokenvend.sqlite"))
/// let user = try await store.users.find(byEmail: "ada@example.com")
/// ```
public struct SQLiteStore: StoreBackend {
    /// The database file and its connections.
    public let database: Database
    /// The concrete stores, for the blocking forms (tests) and the snapshot; callers use `users`, `sessions`, ….
    package let userStore: UserStore
    package let sessionStore: SessionStore
    package let identityStore: IdentityStore
    package let oauthStore: OAuthFlowStore
    package let emailStore: EmailStore
    package let integrityStore: SQLiteIntegrityStore
    package let passkeyStore: SQLitePasskeyStore

    /// Opens (creating and migrating when new) the database of `configuration`.
    /// - Throws: as `Database.init(configuration:)`.
    public init(configuration: Database.Configuration) throws(StoreError) {
        self.init(database: try Database(configuration: configuration))
    }

    /// Wraps an open database.
    public init(database: Database) {
        self.database = database
        userStore = UserStore(database: database)
        sessionStore = SessionStore(database: database)
        identityStore = IdentityStore(database: database)
        oauthStore = OAuthFlowStore(database: database)
        emailStore = EmailStore(database: database)
        integrityStore = SQLiteIntegrityStore(database: database)
        passkeyStore = SQLitePasskeyStore(database: database)
    }

    public var users: any UserStoring { userStore }
    public var sessions: any SessionStoring { sessionStore }
    public var identities: any IdentityStoring { identityStore }
    public var oauth: any OAuthFlowStoring { oauthStore }
    public var email: any EmailStoring { emailStore }
    public var integrity: any IntegrityStoring { integrityStore }
    public var passkeys: any PasskeyStoring { passkeyStore }
    /// Nil: one instance keeps the DPoP proof ids it accepted in memory.
    public var dpopProofs: (any DPoPProofStoring)? { nil }
    /// Nil: one instance keeps its rate-limit counters in memory.
    public var rateLimits: (any RateLimitCounters)? { nil }
    public var isShared: Bool { false }
    public var displayName: String { "sqlite:\(database.configuration.path)" }

    public func ping() async throws(StoreError) { try await database.ping() }

    public func schemaVersion() async throws(StoreError) -> SchemaVersion {
        let found = try await database.read { (connection: Connection) throws(StoreError) in
            try Migrator.userVersion(connection)
        }
        return SchemaVersion(found: found, known: Schema.migrations.last?.version ?? 0)
    }

    public func close() { database.close() }
}
