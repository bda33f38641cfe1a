/// How many rows `PostgresStore.copy(from:replacing:)` wrote (`tokenvend db copy`).
public struct CopyReport: Sendable, Equatable {
    /// Users written.
    public var users: Int
    /// Customer ids written.
    public var customerIDs: Int
    /// Live sessions written.
    public var sessions: Int
    /// Identities written.
    public var identities: Int
    /// Records of deleted accounts written.
    public var deletedAccounts: Int
    /// App Attest keys written.
    public var attestedKeys: Int
    /// Passkeys written.
    public var passkeys: Int

    /// Creates a report.
    public init(
        users: Int, customerIDs: Int, sessions: Int, identities: Int = 0, deletedAccounts: Int = 0,
        attestedKeys: Int = 0, passkeys: Int = 0
    ) {
        self.users = users
        self.customerIDs = customerIDs
        self.sessions = sessions
        self.identities = identities
        self.deletedAccounts = deletedAccounts
        self.attestedKeys = attestedKeys
        self.passkeys = passkeys
    }
}
