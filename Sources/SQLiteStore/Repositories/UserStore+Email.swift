public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// What the email-code flows change on an account (issue 32): a verified email, a new address, a new password that
// ends the other sessions. Each is one write transaction; the commit counter it moves ends every kept session
// status, in this process and in any other on the file, as `disable` does.
extension UserStore {
    /// See `UserStoring.markEmailVerified(userID:source:now:)`.
    public func markEmailVerified(
        userID: String, source: EmailVerificationSource, now: Date
    ) async throws(StoreError) -> User {
        try await database.write { (connection: Connection) throws(StoreError) -> User in
            try connection.execute(
                """
                UPDATE users SET
                    email_verified_at = CASE WHEN email IS NULL THEN NULL ELSE coalesce(email_verified_at, ?1) END,
                    email_verified_by = CASE WHEN email IS NULL THEN NULL ELSE ?2 END
                WHERE id = ?3
                """, [.integer(now.storeMilliseconds), .text(source.storedValue), .text(userID)])
            guard let user = try Self.find(id: userID, connection) else { throw .notFound }
            return user
        }
    }

    /// See `UserStoring.changeEmail(userID:to:now:)`.
    public func changeEmail(userID: String, to email: String, now: Date) async throws(StoreError) -> User {
        try await database.write { (connection: Connection) throws(StoreError) -> User in
            try Self.changeEmail(userID: userID, to: email, now: now, connection)
            guard let user = try Self.find(id: userID, connection) else { throw .notFound }
            return user
        }
    }

    /// See `UserStoring.replacePassword(userID:hash:keeping:now:)`.
    @discardableResult
    public func replacePassword(
        userID: String, hash: String, keeping sessionID: String?, now: Date
    ) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) -> Int in
            try Self.updatePasswordHash(userID: userID, hash: hash, connection)
            return try connection.execute(
                "UPDATE sessions SET revoked_at = ?1 WHERE user_id = ?2 AND revoked_at IS NULL AND id IS NOT ?3",
                [.integer(now.storeMilliseconds), .text(userID), SQLValue(sessionID)])
        }
    }

    static func changeEmail(userID: String, to email: String, now: Date, _ connection: Connection) throws(StoreError) {
        do {
            try connection.execute(
                "UPDATE users SET email = ?1, email_verified_at = ?2, email_verified_by = ?3 WHERE id = ?4",
                [
                    .text(email), .integer(now.storeMilliseconds),
                    .text(EmailVerificationSource.emailCode.storedValue), .text(userID),
                ])
        } catch .constraint(.unique) {
            throw .emailTaken  // the only UNIQUE column besides the primary key
        }
    }
}
