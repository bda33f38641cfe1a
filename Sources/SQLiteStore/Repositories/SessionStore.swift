package import Store

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Sessions and refresh-token rotation (GoTrue v2 design: the token carries `(sessionID, counter)` and a MAC
/// the caller computes and checks; the store keeps the live counter and decides each rotation in one
/// `BEGIN IMMEDIATE` transaction, so a session never has two live tokens, even across a crash).
///
/// Every method has an `async` form (`SessionStore+Async.swift`), and a blocking form for the package's tests.
public struct SessionStore: Sendable {
    /// The database the sessions live in.
    public let database: Database

    /// Creates a store over `database`.
    public init(database: Database) {
        self.database = database
    }

    /// Starts a session at counter 0.
    /// - Parameters:
    ///   - refreshTTL: sliding lifetime of the refresh token (`refreshToken.ttlSeconds`).
    ///   - maxLifetime: absolute cap from `now` (`session.maxLifetimeSeconds`).
    ///   - dpopThumbprint: the RFC 7638 thumbprint of the DPoP key the session is bound to, or nil (unbound).
    /// - Throws: `.notFound` for an unknown user, `.userDisabled` for a disabled one, `.unavailable` on a full
    ///   or read-only disk.
    @discardableResult
    package func create(
        userID: String, userAgent: String?, ip: String?, now: Date = Date(), refreshTTL: Duration,
        maxLifetime: Duration, dpopThumbprint: String? = nil
    ) throws(StoreError) -> Session {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.create(
                userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL,
                maxLifetime: maxLifetime, dpopThumbprint: dpopThumbprint, connection)
        }
    }

    /// Decides a refresh: see `RotationOutcome`. One `BEGIN IMMEDIATE` transaction.
    ///
    /// A missing session is `.invalid`; otherwise `Rotation.decide` rules on the row read in the transaction:
    /// `.rotate` → `.rotated` (counter + 1, `rotatedAt = lastUsedAt = now`, refresh expiry slides to
    /// `now + refreshTTL`, capped); `.converged`; `.revoke` → session revoked, `.reuseDetected`; `.invalid`.
    /// - Throws: `.unavailable` on a full or read-only disk or a lock held past the busy timeout.
    package func rotate(
        sessionID: String, presentedCounter: Int64, now: Date = Date(), grace: Duration, refreshTTL: Duration
    ) throws(StoreError) -> RotationOutcome {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.rotate(
                sessionID: sessionID, presentedCounter: presentedCounter, now: now, grace: grace,
                refreshTTL: refreshTTL, connection)
        }
    }

    /// Revokes one session. With `userID`, only if it belongs to that user (`DELETE /auth/sessions/{id}`).
    /// Idempotent.
    /// - Returns: 1 if a live session was revoked now, else 0.
    /// - Throws: `.unavailable` on a full or read-only disk.
    @discardableResult
    package func revoke(sessionID: String, userID: String? = nil, now: Date = Date()) throws(StoreError) -> Int {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.revoke(sessionID: sessionID, userID: userID, now: now, connection)
        }
    }

    /// Revokes every live session of the user except `except` (`logout?scope=others`).
    /// - Returns: how many were revoked.
    @discardableResult
    package func revokeOthers(userID: String, except: String, now: Date = Date()) throws(StoreError) -> Int {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.revokeAll(userID: userID, except: except, now: now, connection)
        }
    }

    /// Revokes every live session of the user (`logout?scope=global`).
    /// - Returns: how many were revoked.
    @discardableResult
    package func revokeAll(userID: String, now: Date = Date()) throws(StoreError) -> Int {
        try database.write { (connection: Connection) throws(StoreError) in
            try Self.revokeAll(userID: userID, except: nil, now: now, connection)
        }
    }

    /// The user's sessions whose refresh token still works at `now`, most recently used first.
    package func liveSessions(userID: String, now: Date = Date()) throws(StoreError) -> [Session] {
        try database.read { (connection: Connection) throws(StoreError) in
            try Self.liveSessions(userID: userID, now: now, connection)
        }
    }

    /// The full session row, or nil.
    package func find(sessionID: String) throws(StoreError) -> Session? {
        try database.read { (connection: Connection) throws(StoreError) in try Self.find(sessionID, connection) }
    }

    /// Liveness data for the per-request `sid` check: one primary-key read on a reader connection with a
    /// cached prepared statement, or the answer kept from an earlier read when no write transaction has ended
    /// on the database since (see `SessionStatusCache`). Nil for an unknown session.
    package func status(sessionID: String) throws(StoreError) -> SessionStatus? {
        if let kept = database.statusCache?.status(sessionID) { return kept }
        let stamp = database.statusCache?.stamp()
        // One SELECT: its implicit read transaction is as consistent as an explicit one, and cheaper.
        let status = try database.readStatement { (connection: Connection) throws(StoreError) in
            try Self.status(sessionID, connection)
        }
        if let stamp { database.statusCache?.store(status, for: sessionID, stamp: stamp) }
        return status
    }

    /// Records use of the session (`lastUsedAt = now`) without rotating. Optional.
    package func touch(sessionID: String, now: Date = Date()) throws(StoreError) {
        _ = try database.write { (connection: Connection) throws(StoreError) in
            try connection.execute(
                "UPDATE sessions SET last_used_at = ? WHERE id = ? AND revoked_at IS NULL",
                [.integer(now.storeMilliseconds), .text(sessionID)])
        }
    }

    /// Deletes sessions whose absolute cap passed before `cutoff` (housekeeping).
    /// - Returns: how many rows were deleted.
    @discardableResult
    package func purge(expiredBefore cutoff: Date) throws(StoreError) -> Int {
        try database.write { (connection: Connection) throws(StoreError) in
            try connection.execute("DELETE FROM sessions WHERE expires_at < ?", [.integer(cutoff.storeMilliseconds)])
        }
    }
}
