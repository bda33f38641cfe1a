extension SessionStore {
    /// The status of `sessionID` and the customer ids of `userID`, read in one transaction (one snapshot and
    /// one set of SQLite locks for an authenticated `POST /stream-token`). Blocks the calling thread.
    /// - Parameter emailAsRegistered: as in `UserStore.customerIDs(userID:emailAsRegistered:)`.
    /// - Returns: nil for an unknown session, and the user's ids (empty for an unknown user).
    /// - Throws: `.unavailable` when the database is unreachable.
    public func statusAndCustomerIDs(
        sessionID: String, userID: String, emailAsRegistered: Bool = false
    ) throws(StoreError) -> (status: SessionStatus?, customerIDs: [String: String]) {
        try database.read { (connection: Connection) throws(StoreError) in
            (
                try Self.status(sessionID, connection),
                try UserStore.customerIDs(userID, emailAsRegistered: emailAsRegistered, connection)
            )
        }
    }
}
