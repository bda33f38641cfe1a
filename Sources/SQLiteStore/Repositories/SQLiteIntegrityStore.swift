public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// App-integrity challenges and App Attest keys in SQLite (see `IntegrityStoring`).
///
/// Every write runs on the database's single writer (one transaction each, group-committed); the challenges are
/// a `SingleUseHashes` table (as the nonces), and each decision (consume, advance) is one row-changing statement.
public struct SQLiteIntegrityStore: IntegrityStoring {
    /// The database the challenges and keys live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    /// The challenges (`integrity_challenges`).
    var challenges: SingleUseHashes { SingleUseHashes(database: database, table: "integrity_challenges") }

    public func issueChallenge(
        hash: String, expiresAt: Date, maxPending: Int, now: Date
    ) async throws(StoreError) -> Bool {
        try await challenges.issue(hash: hash, expiresAt: expiresAt, maxPending: maxPending, now: now)
    }

    public func consumeChallenge(hash: String, now: Date) async throws(StoreError) -> Bool {
        try await challenges.consume(hash: hash, now: now)
    }

    @discardableResult
    public func pruneChallenges(expiredBy now: Date) async throws(StoreError) -> Int {
        try await challenges.prune(expiredBy: now)
    }

    public func insertAttestedKey(_ key: AttestedKey) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                """
                INSERT INTO app_attest_keys (\(AttestedKey.columns)) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (key_id) DO NOTHING
                """, key.bindings) == 1
        }
    }

    public func attestedKey(id: String) async throws(StoreError) -> AttestedKey? {
        try await database.read { (connection: Connection) throws(StoreError) in
            try connection.queryOne(
                "SELECT \(AttestedKey.columns) FROM app_attest_keys WHERE key_id = ?", [.text(id)]
            ).map(AttestedKey.init(row:))
        }
    }

    /// Every stored key, oldest first (`tokenvend integrity keys list`, `tokenvend db copy`).
    /// - Throws: `.unavailable`, `.corrupt`.
    public func attestedKeys() async throws(StoreError) -> [AttestedKey] {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.attestedKeys(connection)
        }
    }

    public func advanceCounter(keyID: String, to counter: UInt32, now: Date) async throws(StoreError) -> Bool {
        // One conditional statement: of two assertions with the same counter, the second finds it not lower.
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "UPDATE app_attest_keys SET counter = ?1, last_asserted_at = ?2 WHERE key_id = ?3 AND counter < ?1",
                [.integer(Int64(counter)), .integer(now.storeMilliseconds), .text(keyID)]) == 1
        }
    }

    @discardableResult
    public func deleteAttestedKey(id: String) async throws(StoreError) -> Bool {
        try await database.write { (connection: Connection) throws(StoreError) in
            try connection.execute("DELETE FROM app_attest_keys WHERE key_id = ?", [.text(id)]) == 1
        }
    }

    /// Every key in `connection`, oldest first (ties by id).
    static func attestedKeys(_ connection: Connection) throws(StoreError) -> [AttestedKey] {
        try connection.query(
            "SELECT \(AttestedKey.columns) FROM app_attest_keys ORDER BY created_at, key_id"
        ).map { (row: Row) throws(StoreError) in try AttestedKey(row: row) }
    }
}
