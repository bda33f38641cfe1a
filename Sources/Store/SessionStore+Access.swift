extension SessionStore {
    /// The status of `sessionID` and the customer ids of `userID`, read in one transaction (one snapshot and
    /// one set of SQLite locks for an authenticated `POST /stream-token`). Blocks the calling thread.
    /// - Returns: nil for an unknown session, and the user's ids (empty when they have none).
    /// - Throws: `.unavailable` when the database is unreachable.
    public func statusAndCustomerIDs(
        sessionID: String, userID: String
    ) throws(StoreError) -> (status: SessionStatus?, customerIDs: [String: String]) {
        try database.read { (connection: Connection) throws(StoreError) in
            (try Self.status(sessionID, connection), try UserStore.customerIDs(userID, connection))
        }
    }
}
