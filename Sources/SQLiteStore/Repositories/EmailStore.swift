public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Email codes and the outbox in SQLite (see `EmailStoring`).
///
/// Every method that decides on a row's state (`issueCode`, `redeemCode`, `claimOutbox`) reads and changes it in
/// one write transaction on the database's single writer, so two presentations of one code run one after the
/// other (the first accepts, the second finds nothing), and two senders never claim one row.
public struct EmailStore: EmailStoring {
    /// The database the codes and the outbox live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    public func issueCode(_ code: EmailCode, message: OutboxMessage?) async throws(StoreError) {
        let stored = EmailCode(
            purpose: code.purpose, subject: code.subject, hash: code.hash, userID: code.userID, email: code.email,
            attempts: 0, createdAt: code.createdAt, expiresAt: code.expiresAt)
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.upsert(stored, connection)
            // In the same transaction: a failing insert takes the code back with it.
            if let message { try Self.insert(message, connection) }
        }
    }

    public func enqueue(_ message: OutboxMessage) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.insert(message, connection)
        }
    }

    public func redeemCode(
        purpose: EmailCodePurpose, subject: String, hash: String, maxAttempts: Int, now: Date
    ) async throws(StoreError) -> EmailCodeCheck {
        try await database.write { (connection: Connection) throws(StoreError) -> EmailCodeCheck in
            let key: [SQLValue] = [.text(purpose.rawValue), .text(subject)]
            let stored = try connection.queryOne(
                "SELECT \(EmailCode.columns) FROM email_codes WHERE purpose = ? AND subject = ?", key
            ).map(EmailCode.init)
            let decision = EmailCodeRedemption.decide(stored: stored, hash: hash, maxAttempts: maxAttempts, now: now)
            switch decision {
            case .missing:
                break
            case .expired, .accept, .kill:
                try connection.execute("DELETE FROM email_codes WHERE purpose = ? AND subject = ?", key)
            case .reject(let attempts, _):
                try connection.execute(
                    "UPDATE email_codes SET attempts = ? WHERE purpose = ? AND subject = ?",
                    [.integer(Int64(attempts))] + key)
            }
            return decision.check(stored)
        }
    }

    public func claimOutbox(
        owner: String, limit: Int, lease: Duration, now: Date
    ) async throws(StoreError) -> [OutboxEntry] {
        guard limit > 0 else { return [] }
        let time = now.storeMilliseconds
        let until = time.addingReportingOverflow(max(lease.storeMilliseconds, 0))
        let claimedUntil = until.overflow ? Int64.max : until.partialValue
        return try await database.write { (connection: Connection) throws(StoreError) -> [OutboxEntry] in
            // The single writer: nothing else claims between this read and the update.
            var entries: [OutboxEntry] = []
            for row in try connection.query(
                """
                SELECT \(OutboxEntry.columns) FROM outbox
                WHERE failed_at IS NULL AND next_attempt_at <= ?1 AND (claimed_until IS NULL OR claimed_until <= ?1)
                ORDER BY created_at, id LIMIT ?2
                """, [.integer(time), .integer(Int64(limit))])
            {
                let entry = try OutboxEntry(row: row)
                try connection.execute(
                    "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ?",
                    [.text(owner), .integer(claimedUntil), .text(entry.id)])
                entries.append(entry)
            }
            return entries
        }
    }

    @discardableResult
    public func releaseOutbox(claimedBy owner: String) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) -> Int in
            try connection.execute(
                """
                UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
                WHERE claimed_by = ? AND failed_at IS NULL
                """, [.text(owner)])
        }
    }

    public func completeOutbox(id: String) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            _ = try connection.execute("DELETE FROM outbox WHERE id = ?", [.text(id)])
        }
    }

    public func retryOutbox(id: String, nextAttemptAt: Date, lastError: String) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            _ = try connection.execute(
                """
                UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, claimed_by = NULL,
                    claimed_until = NULL, last_error = ?
                WHERE id = ? AND failed_at IS NULL
                """, [.integer(nextAttemptAt.storeMilliseconds), .text(lastError), .text(id)])
        }
    }

    public func failOutbox(id: String, lastError: String, now: Date) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            _ = try connection.execute(
                """
                UPDATE outbox SET attempts = attempts + 1, failed_at = ?, last_error = ?, body = NULL,
                    claimed_by = NULL, claimed_until = NULL
                WHERE id = ? AND failed_at IS NULL
                """, [.integer(now.storeMilliseconds), .text(lastError), .text(id)])
        }
    }

    public func listOutbox() async throws(StoreError) -> [OutboxSummary] {
        try await database.read { (connection: Connection) throws(StoreError) -> [OutboxSummary] in
            var rows: [OutboxSummary] = []
            for row in try connection.query(
                "SELECT \(OutboxSummary.columns) FROM outbox ORDER BY created_at, id")
            {
                rows.append(try OutboxSummary(row: row))
            }
            return rows
        }
    }

    public func pendingOutboxCount() async throws(StoreError) -> Int {
        try await database.read { (connection: Connection) throws(StoreError) -> Int in
            Int(try connection.queryOne("SELECT count(*) FROM outbox WHERE failed_at IS NULL")?.int64(0) ?? 0)
        }
    }

    public func nextOutboxDue() async throws(StoreError) -> Date? {
        try await database.read { (connection: Connection) throws(StoreError) -> Date? in
            // A held row is due when its lease ends (it may still be retried later by its holder).
            try connection.queryOne(
                """
                SELECT min(max(next_attempt_at, coalesce(claimed_until, next_attempt_at))) FROM outbox
                WHERE failed_at IS NULL
                """
            )?.optionalInt64(0).map(Date.init(storeMilliseconds:))
        }
    }

    @discardableResult
    public func pruneEmail(expiredBy now: Date, failedBefore: Date) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) -> Int in
            let codes = try connection.execute(
                "DELETE FROM email_codes WHERE expires_at <= ?", [.integer(now.storeMilliseconds)])
            let messages = try connection.execute(
                "DELETE FROM outbox WHERE failed_at IS NOT NULL AND failed_at < ?",
                [.integer(failedBefore.storeMilliseconds)])
            return codes + messages
        }
    }

    /// Stores `code`, replacing the code of the same purpose and subject (its tries with it).
    /// - Throws: `.notFound` when its user does not exist.
    static func upsert(_ code: EmailCode, _ connection: Connection) throws(StoreError) {
        do {
            try connection.execute(
                """
                INSERT INTO email_codes (\(EmailCode.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (purpose, subject) DO UPDATE SET hash = excluded.hash, user_id = excluded.user_id,
                    email = excluded.email, attempts = excluded.attempts, created_at = excluded.created_at,
                    expires_at = excluded.expires_at
                """, code.bindings)
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }

    static func insert(_ message: OutboxMessage, _ connection: Connection) throws(StoreError) {
        let createdAt = SQLValue.integer(message.createdAt.storeMilliseconds)
        try connection.execute(
            """
            INSERT INTO outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
            VALUES (?, ?, ?, ?, 0, ?, ?)
            """,
            [
                .text(message.id), .text(message.kind), .text(message.recipient), .blob(message.body), createdAt,
                createdAt,
            ])
    }
}
