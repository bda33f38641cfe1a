public import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

// The same operations as `SessionStore`, suspending instead of blocking (SQLite runs on the store's Dispatch
// queues; the caller resumes once). Same parameters, results and errors as the blocking forms.
extension SessionStore {
    /// See the blocking `create`.
    @discardableResult
    public func create(
        userID: String, userAgent: String?, ip: String?, now: Date = Date(), refreshTTL: Duration,
        maxLifetime: Duration, dpopThumbprint: String? = nil
    ) async throws(StoreError) -> Session {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.create(
                userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL,
                maxLifetime: maxLifetime, dpopThumbprint: dpopThumbprint, connection)
        }
    }

    /// See the blocking `rotate`.
    public func rotate(
        sessionID: String, presentedCounter: Int64, now: Date = Date(), grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationOutcome {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.rotate(
                sessionID: sessionID, presentedCounter: presentedCounter, now: now, grace: grace,
                refreshTTL: refreshTTL, connection)
        }
    }

    /// `rotate`, with the session's user read in the same `BEGIN IMMEDIATE` transaction (for `.rotated` and
    /// `.converged`); see `SessionStoring.rotateReadingUser`.
    public func rotateReadingUser(
        sessionID: String, presentedCounter: Int64, now: Date = Date(), grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationResult {
        try await database.write { (connection: Connection) throws(StoreError) in
            let outcome = try Self.rotate(
                sessionID: sessionID, presentedCounter: presentedCounter, now: now, grace: grace,
                refreshTTL: refreshTTL, connection)
            switch outcome {
            case .rotated(let session, _), .converged(let session, _):
                return RotationResult(outcome: outcome, user: try UserStore.find(id: session.userID, connection))
            case .reuseDetected, .invalid:
                return RotationResult(outcome: outcome, user: nil)
            }
        }
    }

    /// See the blocking `revoke(sessionID:userID:now:)`.
    @discardableResult
    public func revoke(sessionID: String, userID: String? = nil, now: Date = Date()) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.revoke(sessionID: sessionID, userID: userID, now: now, connection)
        }
    }

    /// See the blocking `revokeOthers(userID:except:now:)`.
    @discardableResult
    public func revokeOthers(userID: String, except: String, now: Date = Date()) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.revokeAll(userID: userID, except: except, now: now, connection)
        }
    }

    /// See the blocking `revokeAll(userID:now:)`.
    @discardableResult
    public func revokeAll(userID: String, now: Date = Date()) async throws(StoreError) -> Int {
        try await database.write { (connection: Connection) throws(StoreError) in
            try Self.revokeAll(userID: userID, except: nil, now: now, connection)
        }
    }

    /// See the blocking `liveSessions(userID:now:)`.
    public func liveSessions(userID: String, now: Date = Date()) async throws(StoreError) -> [Session] {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.liveSessions(userID: userID, now: now, connection)
        }
    }

    /// See the blocking `find(sessionID:)`.
    public func find(sessionID: String) async throws(StoreError) -> Session? {
        try await database.read { (connection: Connection) throws(StoreError) in
            try Self.find(sessionID, connection)
        }
    }

    /// See the blocking `status(sessionID:)`.
    public func status(sessionID: String) async throws(StoreError) -> SessionStatus? {
        if let kept = database.statusCache?.status(sessionID) { return kept }
        let stamp = database.statusCache?.stamp()
        let status = try await database.read { (connection: Connection) throws(StoreError) in
            try Self.status(sessionID, connection)
        }
        if let stamp { database.statusCache?.store(status, for: sessionID, stamp: stamp) }
        return status
    }
}
