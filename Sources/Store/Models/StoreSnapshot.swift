/// Everything a store holds that another store needs to take over a deployment (`tokenvend db copy`): users,
/// their stored customer ids and identities (with their sealed provider tokens), the sessions that can still be
/// used, the revoked ones not yet purged, the records of deleted accounts, the attested App Attest keys with
/// their counters, and the accounts' passkey user handles and passkeys. Read in one transaction by
/// `SQLiteStore.snapshot()`. (The used ID tokens and the integrity and passkey challenges are not copied: they
/// only guard against replays for the few minutes they live.)
public struct StoreSnapshot: Sendable, Equatable {
    /// Every user.
    public var users: [User]
    /// Every stored customer id (derived `registered` ids are not stored and not copied).
    public var customerIDs: [StoredCustomerID]
    /// The sessions whose refresh token still works, with their live counters.
    public var sessions: [Session]
    /// The revoked sessions not yet purged: a copy revokes them where the target still holds them live (a logout
    /// made on the source after an earlier copy), and never creates them.
    public var revokedSessions: [Session]
    /// Every identity (provider, subject → user).
    public var identities: [Identity]
    /// The records of deleted accounts (`deleted_accounts`, schema 9).
    public var deletedAccounts: [DeletedAccount]
    /// The attested App Attest keys (`app_attest_keys`, schema 10), with their counters.
    public var attestedKeys: [AttestedKey]
    /// The accounts' passkey user handles (`users.passkey_handle`, schema 12) by user id; accounts without one
    /// are left out.
    public var passkeyHandles: [String: String]
    /// The passkeys (`passkeys`, schema 12) with their counters, oldest first.
    public var passkeys: [Passkey]

    /// Creates a snapshot.
    public init(
        users: [User], customerIDs: [StoredCustomerID], sessions: [Session], revokedSessions: [Session] = [],
        identities: [Identity] = [], deletedAccounts: [DeletedAccount] = [], attestedKeys: [AttestedKey] = [],
        passkeyHandles: [String: String] = [:], passkeys: [Passkey] = []
    ) {
        self.users = users
        self.customerIDs = customerIDs
        self.sessions = sessions
        self.revokedSessions = revokedSessions
        self.identities = identities
        self.deletedAccounts = deletedAccounts
        self.attestedKeys = attestedKeys
        self.passkeyHandles = passkeyHandles
        self.passkeys = passkeys
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
