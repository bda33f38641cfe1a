public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// The SQLite session store behind the backend-neutral `SessionStoring`; the other operations are in
// `SessionStore+Async.swift`, `SessionStore+Paging.swift` and `SessionStore+Housekeeping.swift`.
extension SessionStore: SessionStoring {
    /// Always answers: a SQLite read on a reader connection takes microseconds and never waits on a network.
    public func immediateStatus(sessionID: String) throws(StoreError) -> ImmediateRead<SessionStatus?> {
        .value(try status(sessionID: sessionID))
    }

    /// See the blocking `statusAndCustomerIDs(sessionID:userID:emailAsRegistered:)`.
    public func statusAndCustomerIDs(
        sessionID: String, userID: String, emailAsRegistered: Bool
    ) async throws(StoreError) -> SessionRead {
        let read = try await database.read { (connection: Connection) throws(StoreError) in
            try Self.statusAndCustomerIDs(sessionID, userID, emailAsRegistered: emailAsRegistered, connection)
        }
        return SessionRead(status: read.status, customerIDs: read.customerIDs)
    }

    /// Always answers, from the status cache or one read on a reader connection.
    public func immediateStatusAndCustomerIDs(
        sessionID: String, userID: String, emailAsRegistered: Bool
    ) throws(StoreError) -> ImmediateRead<SessionRead> {
        let read = try statusAndCustomerIDs(sessionID: sessionID, userID: userID, emailAsRegistered: emailAsRegistered)
        return .value(SessionRead(status: read.status, customerIDs: read.customerIDs))
    }

    /// See the blocking `purgeBatch(endedBefore:limit:)`.
    @discardableResult
    public func purgeBatch(endedBefore cutoff: Date, limit: Int) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.purgeBatch(endedBefore: cutoff, limit: limit, connection)
        }
    }
}
