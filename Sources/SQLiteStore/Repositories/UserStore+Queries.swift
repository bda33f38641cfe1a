import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Each operation once, on a connection; `UserStore` and `UserStore+Async` pick the queue.
extension UserStore {
    static func insert(_ user: User, _ connection: Connection) throws(StoreError) {
        do {
            try connection.execute(
                "INSERT INTO users (\(User.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    .text(user.id), SQLValue(user.email), SQLValue(user.passwordHash), .text(user.role),
                    SQLValue(user.tenantID), .null, .integer(user.createdAt.storeMilliseconds),
                    user.emailVerifiedAt.map { .integer($0.storeMilliseconds) } ?? .null,
                    SQLValue(user.emailVerifiedBy?.storedValue),
                ])
        } catch .constraint(.unique) {
            throw .emailTaken  // the only UNIQUE column besides the primary key
        }
    }

    static func find(email: String, _ connection: Connection) throws(StoreError) -> User? {
        try connection.queryOne("SELECT \(User.columns) FROM users WHERE email = ?", [.text(email)]).map(User.init)
    }

    static func find(id: String, _ connection: Connection) throws(StoreError) -> User? {
        try connection.queryOne("SELECT \(User.columns) FROM users WHERE id = ?", [.text(id)]).map(User.init)
    }

    /// Every user, by creation time then email.
    /// - Parameter columns: the select list, `User.columns` unless a snapshot of an older file computes a column.
    static func list(_ connection: Connection, columns: String = User.columns) throws(StoreError) -> [User] {
        var users: [User] = []
        for row in try connection.query(
            "SELECT \(columns) FROM users ORDER BY created_at, email IS NULL, email, id")
        {
            users.append(try User(row: row))
        }
        return users
    }

    static func disable(email: String, now: Date, _ connection: Connection) throws(StoreError) -> Int {
        guard let user = try find(email: email, connection) else { throw .notFound }
        return try disable(userID: user.id, now: now, connection)
    }

    /// - Throws: `.notFound` for an unknown id.
    static func disable(userID: String, now: Date, _ connection: Connection) throws(StoreError) -> Int {
        let time = SQLValue.integer(now.storeMilliseconds)
        guard
            try connection.execute(
                "UPDATE users SET disabled_at = coalesce(disabled_at, ?) WHERE id = ?", [time, .text(userID)]) > 0
        else { throw .notFound }
        return try connection.execute(
            "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [time, .text(userID)])
    }

    static func setCustomerID(email: String, key: String, value: String, _ connection: Connection) throws(StoreError) {
        guard let user = try find(email: email, connection) else { throw .notFound }
        try setCustomerID(userID: user.id, key: key, value: value, connection)
    }

    /// - Throws: `.notFound` for an unknown id (the foreign key).
    static func setCustomerID(userID: String, key: String, value: String, _ connection: Connection)
        throws(StoreError)
    {
        do {
            try connection.execute(
                """
                INSERT INTO customer_ids (user_id, key, value) VALUES (?, ?, ?)
                ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value
                """,
                [.text(userID), .text(key), .text(value)])
        } catch .constraint(.foreignKey) {
            throw .notFound
        }
    }

    /// The explicit ids, plus a derived `registered` unless one is set: the verified email when
    /// `emailAsRegistered`, else the user id. One statement, so one implicit read transaction suffices.
    static func customerIDs(_ userID: String, emailAsRegistered: Bool, _ connection: Connection) throws(StoreError)
        -> [String: String]
    {
        var ids: [String: String] = [:]
        for row in try connection.query(
            """
            SELECT key, value FROM customer_ids WHERE user_id = ?1
            UNION ALL
            SELECT 'registered', CASE WHEN ?2 AND email_verified_at IS NOT NULL AND email IS NOT NULL THEN email ELSE id END
            FROM users
            WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM customer_ids WHERE user_id = ?1 AND key = 'registered')
            """,
            [.text(userID), .integer(emailAsRegistered ? 1 : 0)])
        {
            ids[try row.string(0)] = try row.string(1)
        }
        return ids
    }

    static func markEmailVerified(email: String, now: Date, _ connection: Connection) throws(StoreError) {
        guard try find(email: email, connection) != nil else { throw .notFound }
        try connection.execute(
            """
            UPDATE users SET email_verified_at = coalesce(email_verified_at, ?), email_verified_by = 'operator'
            WHERE email = ?
            """,
            [.integer(now.storeMilliseconds), .text(email)])
    }

    static func updatePasswordHash(userID: String, hash: String, _ connection: Connection) throws(StoreError) {
        let changed = try connection.execute(
            "UPDATE users SET password_hash = ? WHERE id = ?", [.text(hash), .text(userID)])
        guard changed == 1 else { throw .notFound }
    }
}
