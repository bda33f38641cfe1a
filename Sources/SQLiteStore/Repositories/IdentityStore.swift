public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Identities and the ID-token replay guard in SQLite (see `IdentityStoring`).
///
/// Every write runs on the database's single writer (one transaction each, group-committed), so
/// `createUser`'s check and inserts cannot interleave with another request's.
public struct IdentityStore: IdentityStoring {
    /// The database the identities live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    public func user(provider: String, subject: String) async throws(StoreError) -> User? {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.linkedUser(provider: provider, subject: subject, connection)
        }
    }

    public func link(
        provider: String, subject: String, userID: String, email: String?, now: Date
    ) async throws(StoreError) {
        let identity = Identity(
            provider: provider, subject: subject, userID: userID, email: email,
            createdAt: Date(storeMilliseconds: now.storeMilliseconds))
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.insert(identity, connection)
        }
    }

    public func createUser(
        id: String, email: String?, emailVerifiedAt: Date?, role: String, tenantID: String?, provider: String,
        subject: String, now: Date
    ) async throws(StoreError) -> (user: User, created: Bool) {
        let createdAt = Date(storeMilliseconds: now.storeMilliseconds)
        let user = User(
            id: id, email: email, passwordHash: nil, role: role, tenantID: tenantID, disabledAt: nil,
            createdAt: createdAt,
            emailVerifiedAt: email == nil ? nil : emailVerifiedAt.map { Date(storeMilliseconds: $0.storeMilliseconds) },
            emailVerifiedBy: .provider(provider))
        let identity = Identity(provider: provider, subject: subject, userID: id, email: email, createdAt: createdAt)
        return try await database.write { (connection: Connection) throws(StoreError) -> (user: User, created: Bool) in
            if let linked = try Self.linkedUser(provider: provider, subject: subject, connection) {
                return (linked, false)
            }
            try UserStore.insert(user, connection)
            try Self.insert(identity, connection)
            return (user, true)
        }
    }

    public func identities(userID: String) async throws(StoreError) -> [Identity] {
        try await database.read { (connection: Connection) throws(StoreError) in
            var identities: [Identity] = []
            for row in try connection.query(
                "SELECT \(Identity.columns) FROM identities WHERE user_id = ? ORDER BY created_at, provider, subject",
                [.text(userID)])
            {
                identities.append(try Identity(row: row))
            }
            return identities
        }
    }

    public func unlink(provider: String, subject: String, userID: String) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "DELETE FROM identities WHERE provider = ? AND subject = ? AND user_id = ?",
                [.text(provider), .text(subject), .text(userID)]) > 0
        }
    }

    public func recordUse(tokenHash: String, expiresAt: Date, now: Date) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            // A remembered hash is never accepted again, expired or not: only `pruneUses` forgets it.
            try connection.execute(
                "INSERT INTO id_token_uses (hash, expires_at) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING",
                [.text(tokenHash), .integer(expiresAt.storeMilliseconds)]) == 1
        }
    }

    @discardableResult
    public func pruneUses(expiredBy now: Date) async throws(StoreError) -> Int {
        let cutoff = now.addingTimeInterval(-IDTokenUses.pruneMargin)
        return try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "DELETE FROM id_token_uses WHERE expires_at <= ?", [.integer(cutoff.storeMilliseconds)])
        }
    }

    /// The server-issued nonces (`auth_nonces`).
    var nonces: SingleUseHashes { SingleUseHashes(database: database, table: "auth_nonces") }

    public func issueNonce(
        hash: String, expiresAt: Date, maxPending: Int, now: Date
    ) async throws(StoreError) -> Bool {
        try await nonces.issue(hash: hash, expiresAt: expiresAt, maxPending: maxPending, now: now)
    }

    public func consumeNonce(hash: String, now: Date) async throws(StoreError) -> Bool {
        try await nonces.consume(hash: hash, now: now)
    }

    @discardableResult
    public func pruneNonces(expiredBy now: Date) async throws(StoreError) -> Int {
        try await nonces.prune(expiredBy: now)
    }

    static func linkedUser(provider: String, subject: String, _ connection: Connection) throws(StoreError) -> User? {
        try connection.queryOne(
            """
            SELECT \(User.columns) FROM users
            WHERE id = (SELECT user_id FROM identities WHERE provider = ? AND subject = ?)
            """, [.text(provider), .text(subject)]
        ).map(User.init)
    }

    static func insert(_ identity: Identity, _ connection: Connection) throws(StoreError) {
        do {
            try connection.execute(
                "INSERT INTO identities (\(Identity.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)", identity.bindings)
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }
}
