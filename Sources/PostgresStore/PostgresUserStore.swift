public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Users and their customer ids in PostgreSQL, with the results and errors of `UserStore` (SQLite).
///
/// Changes that affect a session's kept status (disabling a user, a customer id, a verified email) notify
/// `tokenvend_sessions` in the same statement, so every instance's status cache drops its answers.
public struct PostgresUserStore: UserStoring {
    let context: PostgresContext

    init(context: PostgresContext) {
        self.context = context
    }

    static let columns =
        "id, email, password_hash, role, tenant_id, disabled_at, created_at, email_verified_at, email_verified_by"

    @discardableResult
    public func create(
        id: String, email: String?, passwordHash: String?, role: String, tenantID: String?, emailVerifiedAt: Date?,
        now: Date
    ) async throws(StoreError) -> User {
        let verified = emailVerifiedAt.map { $0.storeMilliseconds }
        let rows = try await context.write([
            PostgresStatement(
                "users.create",
                """
                INSERT INTO users (\(Self.columns))
                VALUES ($1, $2, $3, $4, $5, NULL, \(PostgresContext.now(6)), $7::bigint,
                    CASE WHEN $7::bigint IS NULL THEN NULL ELSE 'operator' END)
                RETURNING created_at
                """,
                [id, email, passwordHash, role, tenantID, context.time(now), verified.map { String($0) }])
        ])
        let createdAt = try rows[0].first?.int64(0) ?? now.storeMilliseconds
        return User(
            id: id, email: email, passwordHash: passwordHash, role: role, tenantID: tenantID, disabledAt: nil,
            createdAt: Date(storeMilliseconds: createdAt),
            emailVerifiedAt: verified.map { Date(storeMilliseconds: $0) }, emailVerifiedBy: .operator)
    }

    public func find(byEmail email: String) async throws(StoreError) -> User? {
        let rows = try await context.read([
            PostgresStatement("users.byEmail", "SELECT \(Self.columns) FROM users WHERE email = $1", [email])
        ])
        return try rows[0].first.map(Self.user)
    }

    public func find(byID id: String) async throws(StoreError) -> User? {
        let rows = try await context.read([
            PostgresStatement("users.byID", "SELECT \(Self.columns) FROM users WHERE id = $1", [id])
        ])
        return try rows[0].first.map(Self.user)
    }

    public func list() async throws(StoreError) -> [User] {
        let rows = try await context.read([
            PostgresStatement(
                "users.list", "SELECT \(Self.columns) FROM users ORDER BY created_at, email IS NULL, email, id")
        ])
        var users: [User] = []
        for row in rows[0].rows { users.append(try Self.user(row)) }
        return users
    }

    @discardableResult
    public func disable(email: String, now: Date) async throws(StoreError) -> Int {
        try await disable(column: "email", email, now: now)
    }

    @discardableResult
    public func disable(userID: String, now: Date) async throws(StoreError) -> Int {
        try await disable(column: "id", userID, now: now)
    }

    /// Disables the user whose `column` (`email` or `id`) is `value`.
    private func disable(column: String, _ value: String, now: Date) async throws(StoreError) -> Int {
        let rows = try await context.write([
            PostgresStatement(
                "users.disable.\(column)",
                """
                WITH t AS (SELECT \(PostgresContext.now(2)) AS now),
                u AS (
                    UPDATE users SET disabled_at = coalesce(disabled_at, t.now) FROM t WHERE \(column) = $1
                    RETURNING id),
                r AS (
                    UPDATE sessions SET revoked_at = t.now FROM u, t
                    WHERE sessions.user_id = u.id AND sessions.revoked_at IS NULL RETURNING sessions.id)
                SELECT (SELECT count(*) FROM r), pg_notify('\(PostgresChangeFeed.channel)', u.id) FROM u
                """, [value, context.time(now)])
        ])
        guard let row = rows[0].first else { throw .notFound }
        return Int(try row.int64(0))
    }

    public func setCustomerID(email: String, key: String, value: String) async throws(StoreError) {
        try await setCustomerID(column: "email", email, key: key, value: value)
    }

    public func setCustomerID(userID: String, key: String, value: String) async throws(StoreError) {
        try await setCustomerID(column: "id", userID, key: key, value: value)
    }

    /// Sets one customer id of the user whose `column` (`email` or `id`) is `user`.
    private func setCustomerID(column: String, _ user: String, key: String, value: String) async throws(StoreError) {
        let rows = try await context.write([
            PostgresStatement(
                "users.setCustomerID.\(column)",
                """
                WITH u AS (SELECT id FROM users WHERE \(column) = $1),
                i AS (
                    INSERT INTO customer_ids (user_id, key, value) SELECT id, $2, $3 FROM u
                    ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value RETURNING user_id)
                SELECT (SELECT count(*) FROM i), pg_notify('\(PostgresChangeFeed.channel)', u.id) FROM u
                """, [user, key, value])
        ])
        guard rows[0].first != nil else { throw .notFound }
    }

    public func customerIDs(userID: String, emailAsRegistered: Bool) async throws(StoreError) -> [String: String] {
        let rows = try await context.read([
            PostgresStatement(
                "users.customerIDs",
                """
                SELECT key, value FROM customer_ids WHERE user_id = $1
                UNION ALL
                SELECT 'registered', CASE WHEN $2::boolean AND email_verified_at IS NOT NULL AND email IS NOT NULL THEN email
                    ELSE id END
                FROM users
                WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM customer_ids WHERE user_id = $1 AND key = 'registered')
                """, [userID, emailAsRegistered ? "true" : "false"])
        ])
        var ids: [String: String] = [:]
        for row in rows[0].rows { ids[try row.string(0)] = try row.string(1) }
        return ids
    }

    public func markEmailVerified(email: String, now: Date) async throws(StoreError) {
        let rows = try await context.write([
            PostgresStatement(
                "users.markEmailVerified",
                """
                WITH u AS (
                    UPDATE users SET email_verified_at = coalesce(email_verified_at, \(PostgresContext.now(2))),
                        email_verified_by = 'operator'
                    WHERE email = $1 RETURNING id)
                SELECT pg_notify('\(PostgresChangeFeed.channel)', u.id) FROM u
                """, [email, context.time(now)])
        ])
        guard rows[0].first != nil else { throw .notFound }
    }

    public func updatePasswordHash(userID: String, hash: String) async throws(StoreError) {
        let rows = try await context.write([
            PostgresStatement(
                "users.updatePasswordHash", "UPDATE users SET password_hash = $2 WHERE id = $1", [userID, hash])
        ])
        guard rows[0].affected == 1 else { throw .notFound }
    }

    /// A user from a row of `columns`.
    static func user(_ row: PostgresRow) throws(StoreError) -> User {
        User(
            id: try row.string(0), email: try row.optionalString(1), passwordHash: try row.optionalString(2),
            role: try row.string(3),
            tenantID: try row.optionalString(4),
            disabledAt: try row.optionalInt64(5).map { Date(storeMilliseconds: $0) },
            createdAt: Date(storeMilliseconds: try row.int64(6)),
            emailVerifiedAt: try row.optionalInt64(7).map { Date(storeMilliseconds: $0) },
            emailVerifiedBy: try row.optionalString(8).flatMap(EmailVerificationSource.init(storedValue:)))
    }
}
