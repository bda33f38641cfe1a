internal import Cryptography
public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// App-integrity challenges and App Attest keys in PostgreSQL, with the results and errors of
/// `SQLiteIntegrityStore`, shared by every instance of the deployment.
///
/// Single use across instances comes from one row-changing statement per decision: `consumeChallenge` is one
/// `DELETE` (`PostgresSingleUseHashes`, as the nonces: of two instances consuming one challenge, one deletes it;
/// the other waits for that commit and finds none); `advanceCounter` is one conditional `UPDATE` (the second of two concurrent advances to one counter waits
/// for the first's commit, re-reads the row under READ COMMITTED and finds the counter no longer lower). None of
/// these writes changes a session's status, so the status caches stay.
public struct PostgresIntegrityStore: IntegrityStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    /// The columns `attestedKey(_:)` reads (the public key as hex, `Hex`: the pipeline speaks text).
    static let readColumns =
        "key_id, encode(public_key, 'hex'), counter, app_id, environment, created_at, last_asserted_at"

    /// The challenges (`integrity_challenges`), under the advisory lock class "chal".
    var challenges: PostgresSingleUseHashes {
        PostgresSingleUseHashes(context: context, table: "integrity_challenges", lockClass: 0x6368_616c)
    }

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
        let rows = try await context.writeCounters([
            PostgresStatement(
                "integrity.insertKey",
                """
                INSERT INTO app_attest_keys (
                    key_id, public_key, counter, app_id, environment, created_at, last_asserted_at)
                VALUES ($1, decode($2, 'hex'), $3::bigint, $4, $5, $6::bigint, $7::bigint)
                ON CONFLICT (key_id) DO NOTHING
                """,
                [
                    key.keyID, Hex.encode(key.publicKey), String(key.counter), key.appID, key.environment.rawValue,
                    String(key.createdAt.storeMilliseconds), key.lastAssertedAt.map { String($0.storeMilliseconds) },
                ])
        ])
        return rows[0].affected == 1
    }

    public func attestedKey(id: String) async throws(StoreError) -> AttestedKey? {
        let rows = try await context.read([
            PostgresStatement(
                "integrity.key", "SELECT \(Self.readColumns) FROM app_attest_keys WHERE key_id = $1", [id])
        ])
        return try rows[0].first.map(Self.attestedKey)
    }

    /// Every stored key, oldest first (`tokenvend integrity keys list`).
    /// - Throws: `.unavailable`.
    public func attestedKeys() async throws(StoreError) -> [AttestedKey] {
        let rows = try await context.read([
            PostgresStatement(
                "integrity.keys", "SELECT \(Self.readColumns) FROM app_attest_keys ORDER BY created_at, key_id")
        ])
        var keys: [AttestedKey] = []
        for row in rows[0].rows { keys.append(try Self.attestedKey(row)) }
        return keys
    }

    public func advanceCounter(keyID: String, to counter: UInt32, now: Date) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "integrity.advanceCounter",
                """
                UPDATE app_attest_keys SET counter = $2::bigint, last_asserted_at = \(PostgresContext.now(3))
                WHERE key_id = $1 AND counter < $2::bigint
                """, [keyID, String(counter), context.time(now)])
        ])
        return rows[0].affected == 1
    }

    @discardableResult
    public func deleteAttestedKey(id: String) async throws(StoreError) -> Bool {
        let rows = try await context.writeCounters([
            PostgresStatement("integrity.deleteKey", "DELETE FROM app_attest_keys WHERE key_id = $1", [id])
        ])
        return rows[0].affected == 1
    }

    /// A key from a row of `readColumns`.
    static func attestedKey(_ row: PostgresRow) throws(StoreError) -> AttestedKey {
        guard let publicKey = Hex.decode(try row.string(1)) else {
            throw .misuse("app_attest_keys.public_key read back not as hex")
        }
        guard let counter = UInt32(exactly: try row.int64(2)) else {
            throw .misuse("app_attest_keys.counter out of range")
        }
        guard let environment = AttestationEnvironment(rawValue: try row.string(4)) else {
            throw .misuse("app_attest_keys.environment unknown")
        }
        return AttestedKey(
            keyID: try row.string(0), publicKey: publicKey, counter: counter, appID: try row.string(3),
            environment: environment, createdAt: Date(storeMilliseconds: try row.int64(5)),
            lastAssertedAt: try row.optionalInt64(6).map(Date.init(storeMilliseconds:)))
    }
}
