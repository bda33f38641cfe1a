internal import Cryptography
public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Email codes and the outbox in PostgreSQL, with the results and errors of `EmailStore` (SQLite), shared by every
/// instance of the deployment.
///
/// `redeemCode` locks the code's row (`SELECT … FOR UPDATE`) for its decision, so two instances presenting one code
/// at once run one after the other; `claimOutbox` takes rows `FOR UPDATE SKIP LOCKED`, so two senders never claim
/// one row. None of these writes changes a session's kept status, so they leave the status caches alone.
public struct PostgresEmailStore: EmailStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    static let codeColumns = "purpose, subject, hash, user_id, email, attempts, created_at, expires_at"
    /// The columns `entry(_:)` reads (the body as hex, `Hex`: the pipeline speaks text).
    static let entryColumns = "id, kind, recipient, encode(body, 'hex'), attempts, created_at"
    static let summaryColumns =
        "id, kind, recipient, attempts, created_at, next_attempt_at, claimed_until, failed_at, last_error"

    public func issueCode(_ code: EmailCode, message: OutboxMessage?) async throws(StoreError) {
        // One pipeline, one implicit transaction: a failing insert takes the code back with it.
        do {
            let queued = message.map { [Self.insert($0)] } ?? []
            _ = try await context.writeCounters(
                [
                    PostgresStatement(
                        "email.issueCode",
                        """
                        INSERT INTO email_codes (\(Self.codeColumns))
                        VALUES ($1, $2, $3, $4, $5, 0, $6::bigint, $7::bigint)
                        ON CONFLICT (purpose, subject) DO UPDATE SET hash = EXCLUDED.hash, user_id = EXCLUDED.user_id,
                            email = EXCLUDED.email, attempts = 0, created_at = EXCLUDED.created_at,
                            expires_at = EXCLUDED.expires_at
                        """,
                        [
                            code.purpose.rawValue, code.subject, code.hash, code.userID, code.email,
                            String(code.createdAt.storeMilliseconds), String(code.expiresAt.storeMilliseconds),
                        ])
                ] + queued)
        } catch .constraint(.foreignKey) {
            throw .notFound  // the only reference: the user
        }
    }

    public func enqueue(_ message: OutboxMessage) async throws(StoreError) {
        _ = try await context.writeCounters([Self.insert(message)])
    }

    public func redeemCode(
        purpose: EmailCodePurpose, subject: String, hash: String, maxAttempts: Int, now: Date
    ) async throws(StoreError) -> EmailCodeCheck {
        let key = [purpose.rawValue, subject]
        let time = context.time(now)
        return try await context.pool.withConnection { (connection: PostgresConnection) throws(StoreError) in
            // READ COMMITTED: a redeem that waited for the lock reads the row as the other one left it (its tries
            // counted, or deleted).
            let read = try connection.run(
                [
                    .beginReadCommitted,
                    PostgresStatement(
                        "email.redeemRead",
                        """
                        SELECT \(Self.codeColumns), \(PostgresContext.now(3)) FROM email_codes
                        WHERE purpose = $1 AND subject = $2 FOR UPDATE
                        """, key + [time]),
                ], deadline: connection.deadline)
            let row = read[1].first
            let stored = try row.map(Self.code)
            let decided = Date(storeMilliseconds: try row?.int64(8) ?? now.storeMilliseconds)
            let decision = EmailCodeRedemption.decide(
                stored: stored, hash: hash, maxAttempts: maxAttempts, now: decided)
            var writes: [PostgresStatement] = []
            switch decision {
            case .missing:
                break
            case .expired, .accept, .kill:
                writes.append(
                    PostgresStatement(
                        "email.redeemDelete", "DELETE FROM email_codes WHERE purpose = $1 AND subject = $2", key))
            case .reject(let attempts, _):
                writes.append(
                    PostgresStatement(
                        "email.redeemCount",
                        "UPDATE email_codes SET attempts = $3::bigint WHERE purpose = $1 AND subject = $2",
                        key + [String(attempts)]))
            }
            _ = try connection.run(writes + [.commit], deadline: connection.deadline)
            return decision.check(stored)
        }
    }

    public func claimOutbox(
        owner: String, limit: Int, lease: Duration, now: Date
    ) async throws(StoreError) -> [OutboxEntry] {
        guard limit > 0 else { return [] }
        // SKIP LOCKED: rows another sender is claiming right now are left to it; one it claimed and committed no
        // longer matches when rechecked under the lock (READ COMMITTED), so no row is claimed twice.
        let rows = try await context.writeCounters([
            .beginReadCommitted,
            PostgresStatement(
                "email.claim",
                """
                WITH t AS (SELECT \(PostgresContext.now(2)) AS now),
                due AS (
                    SELECT id FROM outbox
                    WHERE failed_at IS NULL AND next_attempt_at <= (SELECT now FROM t)
                        AND (claimed_until IS NULL OR claimed_until <= (SELECT now FROM t))
                    ORDER BY created_at, id LIMIT $4::bigint
                    FOR UPDATE SKIP LOCKED)
                UPDATE outbox SET claimed_by = $1, claimed_until = t.now + $3::bigint
                FROM t, due WHERE outbox.id = due.id
                RETURNING outbox.id, kind, recipient, encode(body, 'hex'), attempts, created_at
                """, [owner, context.time(now), lease.sqlMilliseconds, String(limit)]),
            .commit,
        ])
        var entries: [OutboxEntry] = []
        for row in rows[1].rows { entries.append(try Self.entry(row)) }
        return entries.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    @discardableResult
    public func releaseOutbox(claimedBy owner: String) async throws(StoreError) -> Int {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "email.release",
                """
                UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
                WHERE claimed_by = $1 AND failed_at IS NULL
                """, [owner])
        ])
        return rows[0].affected
    }

    public func completeOutbox(id: String) async throws(StoreError) {
        _ = try await context.writeCounters([
            PostgresStatement("email.complete", "DELETE FROM outbox WHERE id = $1", [id])
        ])
    }

    public func retryOutbox(id: String, nextAttemptAt: Date, lastError: String) async throws(StoreError) {
        _ = try await context.writeCounters([
            PostgresStatement(
                "email.retry",
                """
                UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $2::bigint, claimed_by = NULL,
                    claimed_until = NULL, last_error = $3
                WHERE id = $1 AND failed_at IS NULL
                """, [id, String(nextAttemptAt.storeMilliseconds), lastError])
        ])
    }

    public func failOutbox(id: String, lastError: String, now: Date) async throws(StoreError) {
        _ = try await context.writeCounters([
            PostgresStatement(
                "email.fail",
                """
                UPDATE outbox SET attempts = attempts + 1, failed_at = \(PostgresContext.now(3)),
                    last_error = $2, body = NULL, claimed_by = NULL, claimed_until = NULL
                WHERE id = $1 AND failed_at IS NULL
                """, [id, lastError, context.time(now)])
        ])
    }

    public func listOutbox() async throws(StoreError) -> [OutboxSummary] {
        let rows = try await context.read([
            PostgresStatement(
                "email.list", "SELECT \(Self.summaryColumns) FROM outbox ORDER BY created_at, id")
        ])
        var summaries: [OutboxSummary] = []
        for row in rows[0].rows {
            summaries.append(
                OutboxSummary(
                    id: try row.string(0), kind: try row.string(1), recipient: try row.string(2),
                    attempts: Int(try row.int64(3)), createdAt: Date(storeMilliseconds: try row.int64(4)),
                    nextAttemptAt: Date(storeMilliseconds: try row.int64(5)),
                    claimedUntil: try row.optionalInt64(6).map(Date.init(storeMilliseconds:)),
                    failedAt: try row.optionalInt64(7).map(Date.init(storeMilliseconds:)),
                    lastError: try row.optionalString(8)))
        }
        return summaries
    }

    public func pendingOutboxCount() async throws(StoreError) -> Int {
        let rows = try await context.read([
            PostgresStatement("email.pending", "SELECT count(*) FROM outbox WHERE failed_at IS NULL")
        ])
        return Int(try rows[0].first?.int64(0) ?? 0)
    }

    public func nextOutboxDue() async throws(StoreError) -> Date? {
        // A held row is due when its lease ends (`greatest` ignores a NULL lease).
        let rows = try await context.read([
            PostgresStatement(
                "email.nextDue",
                "SELECT min(greatest(next_attempt_at, claimed_until)) FROM outbox WHERE failed_at IS NULL")
        ])
        return try rows[0].first?.optionalInt64(0).map(Date.init(storeMilliseconds:))
    }

    @discardableResult
    public func pruneEmail(expiredBy now: Date, failedBefore: Date) async throws(StoreError) -> Int {
        let rows = try await context.writeCounters([
            PostgresStatement(
                "email.pruneCodes", "DELETE FROM email_codes WHERE expires_at <= \(PostgresContext.now(1))",
                [context.time(now)]),
            PostgresStatement(
                "email.pruneOutbox", "DELETE FROM outbox WHERE failed_at IS NOT NULL AND failed_at < $1::bigint",
                [String(failedBefore.storeMilliseconds)]),
        ])
        return rows[0].affected + rows[1].affected
    }

    /// Queues `message`, due at once.
    static func insert(_ message: OutboxMessage) -> PostgresStatement {
        PostgresStatement(
            "email.enqueue",
            """
            INSERT INTO outbox (id, kind, recipient, body, attempts, created_at, next_attempt_at)
            VALUES ($1, $2, $3, decode($4, 'hex'), 0, $5::bigint, $5::bigint)
            """,
            [
                message.id, message.kind, message.recipient, Hex.encode(message.body),
                String(message.createdAt.storeMilliseconds),
            ])
    }

    /// A code from a row of `codeColumns`.
    static func code(_ row: PostgresRow) throws(StoreError) -> EmailCode {
        guard let purpose = EmailCodePurpose(rawValue: try row.string(0)) else {
            throw .misuse("email_codes.purpose holds an unknown purpose")
        }
        return EmailCode(
            purpose: purpose, subject: try row.string(1), hash: try row.string(2), userID: try row.optionalString(3),
            email: try row.string(4), attempts: Int(try row.int64(5)),
            createdAt: Date(storeMilliseconds: try row.int64(6)), expiresAt: Date(storeMilliseconds: try row.int64(7)))
    }

    /// A claimed row from a row of `entryColumns`.
    static func entry(_ row: PostgresRow) throws(StoreError) -> OutboxEntry {
        guard let body = Hex.decode(try row.string(3)) else { throw .misuse("outbox.body read back not as hex") }
        return OutboxEntry(
            id: try row.string(0), kind: try row.string(1), recipient: try row.string(2), body: body,
            attempts: Int(try row.int64(4)), createdAt: Date(storeMilliseconds: try row.int64(5)))
    }
}
