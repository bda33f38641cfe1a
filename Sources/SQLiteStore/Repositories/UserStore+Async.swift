public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// The same operations as `UserStore`, suspending instead of blocking (SQLite runs on the store's Dispatch
// queues; the caller resumes once). Same parameters, results and errors as the blocking forms.
extension UserStore {
    /// See the blocking `create`.
    @discardableResult
    public func create(
        id: String = UUID().uuidString.lowercased(), email: String?, passwordHash: String?, role: String = "user",
        tenantID: String? = nil, emailVerifiedAt: Date? = nil, now: Date = Date()
    ) async throws(StoreError) -> User {
        let user = User(
            id: id, email: email, passwordHash: passwordHash, role: role, tenantID: tenantID, disabledAt: nil,
            createdAt: Date(storeMilliseconds: now.storeMilliseconds),
            emailVerifiedAt: emailVerifiedAt.map { Date(storeMilliseconds: $0.storeMilliseconds) },
            emailVerifiedBy: .operator)
        try await database.write { (connection: Connection) throws(StoreError) in try Self.insert(user, connection) }
        return user
    }

    /// See the blocking `find(byEmail:)`.
    public func find(byEmail email: String) async throws(StoreError) -> User? {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.find(email: email, connection)
        }
    }

    /// See the blocking `find(byID:)`.
    public func find(byID id: String) async throws(StoreError) -> User? {
        try await database.read { (connection: Connection) throws(StoreError) in try Self.find(id: id, connection) }
    }

    /// See the blocking `list()`.
    public func list() async throws(StoreError) -> [User] {
        try await database.read { (connection: Connection) throws(StoreError) in try Self.list(connection) }
    }

    /// See the blocking `disable(email:now:)`.
    @discardableResult
    public func disable(email: String, now: Date = Date()) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.disable(email: email, now: now, connection)
        }
    }

    /// See the blocking `setCustomerID(email:key:value:)`.
    public func setCustomerID(email: String, key: String, value: String) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.setCustomerID(email: email, key: key, value: value, connection)
        }
    }

    /// `disable(email:now:)` for the user `userID`.
    /// - Throws: `.notFound` for an unknown id, `.unavailable` on a full or read-only disk.
    @discardableResult
    public func disable(userID: String, now: Date = Date()) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.disable(userID: userID, now: now, connection)
        }
    }

    /// `setCustomerID(email:key:value:)` for the user `userID`.
    /// - Throws: `.notFound` for an unknown id, `.unavailable` on a full or read-only disk.
    public func setCustomerID(userID: String, key: String, value: String) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.setCustomerID(userID: userID, key: key, value: value, connection)
        }
    }

    /// See the blocking `customerIDs(userID:emailAsRegistered:)`.
    public func customerIDs(userID: String, emailAsRegistered: Bool = false) async throws(StoreError)
        -> [String: String]
    {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.customerIDs(userID, emailAsRegistered: emailAsRegistered, connection)
        }
    }

    /// See the blocking `updatePasswordHash(userID:hash:)`.
    public func updatePasswordHash(userID: String, hash: String) async throws(StoreError) {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.updatePasswordHash(userID: userID, hash: hash, connection)
        }
    }
}
