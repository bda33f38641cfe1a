package import Store

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Users and their customer ids.
///
/// Emails must be normalised by the caller (NFKC, lowercase, trim) before every call; the store compares them
/// byte for byte. Every method has a blocking form (for the CLI and Dispatch threads) and an `async` form
/// (`UserStore+Async.swift`) that never blocks the cooperative pool.
public struct UserStore: Sendable {
    /// The database the users live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    /// Creates a user. It has no stored customer ids: `registered` is derived on read (see `customerIDs`).
    /// - Parameters:
    ///   - id: the user id. Default: a new lowercase UUID.
    ///   - role: default `"user"`.
    ///   - emailVerifiedAt: when the email was verified (operator-created accounts: the source recorded is
    ///     `EmailVerificationSource.operator`), or nil. Default: nil.
    /// - Returns: the stored user.
    /// - Throws: `.emailTaken` when the email exists, `.constraint(.primaryKey)` for a duplicate id,
    ///   `.unavailable` on a full or read-only disk.
    @discardableResult
    package func create(
        id: String = UUID().uuidString.lowercased(), email: String?, passwordHash: String?, role: String = "user",
        tenantID: String? = nil, emailVerifiedAt: Date? = nil, now: Date = Date()
    ) throws(StoreError) -> User {
        let user = User(
            id: id, email: email, passwordHash: passwordHash, role: role, tenantID: tenantID, disabledAt: nil,
            createdAt: Date(storeMilliseconds: now.storeMilliseconds),
            emailVerifiedAt: emailVerifiedAt.map { Date(storeMilliseconds: $0.storeMilliseconds) },
            emailVerifiedBy: .operator)
        try database.write { (connection: Connection) throws(StoreError) in try Self.insert(user, connection) }
        return user
    }

    /// The user with this normalised email, or nil.
    /// - Throws: `.unavailable` when no reader can be opened.
    package func find(byEmail email: String) throws(StoreError) -> User? {
        try database.read { (connection: Connection) throws(StoreError) in try Self.find(email: email, connection) }
    }

    /// The user with this id, or nil.
    /// - Throws: `.unavailable` when no reader can be opened.
    package func find(byID id: String) throws(StoreError) -> User? {
        try database.read { (connection: Connection) throws(StoreError) in try Self.find(id: id, connection) }
    }

    /// Every user, by creation time then email.
    /// - Throws: `.unavailable` when no reader can be opened.
    package func list() throws(StoreError) -> [User] {
        try database.read { (connection: Connection) throws(StoreError) in try Self.list(connection) }
    }

    /// Disables the account (keeping the first `disabledAt`) and revokes all its sessions in the same
    /// transaction.
    /// - Returns: how many live sessions were revoked.
    /// - Throws: `.notFound` for an unknown email, `.unavailable` on a full or read-only disk.
    @discardableResult
    package func disable(email: String, now: Date = Date()) throws(StoreError) -> Int {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.disable(email: email, now: now, connection)
        }
    }

    /// Sets (inserts or replaces) one customer id of the user.
    /// - Throws: `.notFound` for an unknown email, `.unavailable` on a full or read-only disk.
    package func setCustomerID(email: String, key: String, value: String) throws(StoreError) {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.setCustomerID(email: email, key: key, value: value, connection)
        }
    }

    /// The user's customer ids (`key → value`); empty for an unknown user.
    ///
    /// The ids set with `setCustomerID`, and `registered` when none was set: the user's email when
    /// `emailAsRegistered` and the email is verified, else the user id. An unverified email is never a customer
    /// id, so whoever registers someone else's address gets no token for that customer.
    /// - Parameter emailAsRegistered: the `stream.emailCustomerId` switch. Default: false.
    /// - Throws: `.unavailable` when no reader can be opened.
    package func customerIDs(userID: String, emailAsRegistered: Bool = false) throws(StoreError) -> [String: String] {
        try database.readStatement { (connection: Connection) throws(StoreError) in
            try Self.customerIDs(userID, emailAsRegistered: emailAsRegistered, connection)
        }
    }

    /// Records that the user's email is verified (keeping the first time); idempotent.
    /// - Throws: `.notFound` for an unknown email, `.unavailable` on a full or read-only disk.
    package func markEmailVerified(email: String, now: Date = Date()) throws(StoreError) {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.markEmailVerified(email: email, now: now, connection)
        }
    }

    /// Replaces the password hash (after a rehash on login, or a password change).
    /// - Throws: `.notFound` for an unknown id, `.unavailable` on a full or read-only disk.
    package func updatePasswordHash(userID: String, hash: String) throws(StoreError) {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.updatePasswordHash(userID: userID, hash: hash, connection)
        }
    }
}
