/// Everything a store holds that another store needs to take over a deployment (`tokenvend db copy`): users,
/// their stored customer ids, and the sessions that can still be used. Read in one transaction by
/// `SQLiteStore.snapshot()`.
public struct StoreSnapshot: Sendable, Equatable {
    /// Every user.
    public var users: [User]
    /// Every stored customer id (derived `registered` ids are not stored and not copied).
    public var customerIDs: [StoredCustomerID]
    /// The sessions whose refresh token still works, with their live counters.
    public var sessions: [Session]

    /// Creates a snapshot.
    public init(users: [User], customerIDs: [StoredCustomerID], sessions: [Session]) {
        self.users = users
        self.customerIDs = customerIDs
        self.sessions = sessions
    }
}

/// One row of the `customer_ids` table.
public struct StoredCustomerID: Sendable, Equatable {
    /// The owner.
    public var userID: String
    /// The id's name (`registered`, `crm`, …).
    public var key: String
    /// The id.
    public var value: String

    /// Creates a row.
    public init(userID: String, key: String, value: String) {
        self.userID = userID
        self.key = key
        self.value = value
    }
}
