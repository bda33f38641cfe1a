import Foundation
import SQLiteStore
import Store
import Synchronization

/// The faults a `FaultyStore` injects, changeable while a server runs on it.
final class StoreFaults: Sendable {
    struct State {
        /// `immediateStatus…` answer `.mustWait` (a PostgreSQL status-cache miss).
        var mustWait = false
        /// Thrown by `rotate` (a refresh).
        var rotate: StoreError?
        /// Thrown by every session and user read and write.
        var everything: StoreError?
        /// Thrown by `ping`.
        var ping: StoreError?
        /// How many async liveness reads ran (the fallback of the fast paths).
        var asyncReads = 0
    }

    let state = Mutex(State())

    func update(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }
    var current: State { state.withLock { $0 } }
}

/// A SQLite store whose answers can be made to fail or wait, to test what the service does with PostgreSQL's
/// failures (lock and pool timeouts, an unreachable server, cache misses) without a PostgreSQL server.
struct FaultyStore: StoreBackend {
    let inner: SQLiteStore
    let faults: StoreFaults
    let counters: (any RateLimitCounters)?

    var users: any UserStoring { FaultyUsers(inner: inner.userStore, faults: faults) }
    var sessions: any SessionStoring { FaultySessions(inner: inner.sessionStore, faults: faults) }
    /// Without faults: the identity store of `inner`.
    var identities: any IdentityStoring { inner.identityStore }
    /// Without faults: the flow store of `inner`.
    var oauth: any OAuthFlowStoring { inner.oauthStore }
    /// Without faults: the email store of `inner`.
    var email: any EmailStoring { inner.emailStore }
    /// Without faults: the integrity store of `inner`.
    var integrity: any IntegrityStoring { inner.integrityStore }
    /// Without faults: the passkey store of `inner`.
    var passkeys: any PasskeyStoring { inner.passkeys }
    var dpopProofs: (any DPoPProofStoring)? { nil }
    var rateLimits: (any RateLimitCounters)? { counters }
    var isShared: Bool { counters != nil }
    var displayName: String { "faulty:" + inner.displayName }

    func ping() async throws(StoreError) {
        if let error = faults.current.ping { throw error }
        try await inner.ping()
    }

    func schemaVersion() async throws(StoreError) -> SchemaVersion { try await inner.schemaVersion() }
    func close() { inner.close() }
}

struct FaultyUsers: UserStoring {
    let inner: UserStore
    let faults: StoreFaults

    private func check() throws(StoreError) { if let error = faults.current.everything { throw error } }

    func create(
        id: String, email: String?, passwordHash: String?, role: String, tenantID: String?, emailVerifiedAt: Date?,
        now: Date
    ) async throws(StoreError) -> User {
        try check()
        return try await inner.create(
            id: id, email: email, passwordHash: passwordHash, role: role, tenantID: tenantID,
            emailVerifiedAt: emailVerifiedAt, now: now)
    }
    func find(byEmail email: String) async throws(StoreError) -> User? {
        try check()
        return try await inner.find(byEmail: email)
    }
    func find(byID id: String) async throws(StoreError) -> User? {
        try check()
        return try await inner.find(byID: id)
    }
    func list() async throws(StoreError) -> [User] { try await inner.list() }
    func disable(email: String, now: Date) async throws(StoreError) -> Int {
        try await inner.disable(email: email, now: now)
    }
    func setCustomerID(email: String, key: String, value: String) async throws(StoreError) {
        try await inner.setCustomerID(email: email, key: key, value: value)
    }
    func disable(userID: String, now: Date) async throws(StoreError) -> Int {
        try await inner.disable(userID: userID, now: now)
    }
    func setCustomerID(userID: String, key: String, value: String) async throws(StoreError) {
        try await inner.setCustomerID(userID: userID, key: key, value: value)
    }
    func customerIDs(userID: String, emailAsRegistered: Bool) async throws(StoreError) -> [String: String] {
        try await inner.customerIDs(userID: userID, emailAsRegistered: emailAsRegistered)
    }
    func markEmailVerified(email: String, now: Date) async throws(StoreError) {
        try await inner.markEmailVerified(email: email, now: now)
    }
    func updatePasswordHash(userID: String, hash: String) async throws(StoreError) {
        try await inner.updatePasswordHash(userID: userID, hash: hash)
    }
    func setTenant(userID: String, tenantID: String?) async throws(StoreError) {
        try check()
        try await inner.setTenant(userID: userID, tenantID: tenantID)
    }
    func markEmailVerified(userID: String, source: EmailVerificationSource, now: Date) async throws(StoreError)
        -> User
    {
        try check()
        return try await inner.markEmailVerified(userID: userID, source: source, now: now)
    }
    func changeEmail(userID: String, to email: String, now: Date) async throws(StoreError) -> User {
        try check()
        return try await inner.changeEmail(userID: userID, to: email, now: now)
    }
    func replacePassword(userID: String, hash: String, keeping sessionID: String?, now: Date) async throws(StoreError)
        -> Int
    {
        try check()
        return try await inner.replacePassword(userID: userID, hash: hash, keeping: sessionID, now: now)
    }
    func deleteUser(userID: String, method: AccountDeletionMethod, now: Date) async throws(StoreError)
        -> DeletedAccount
    {
        try check()
        return try await inner.deleteUser(userID: userID, method: method, now: now)
    }
    func deletedAccounts() async throws(StoreError) -> [DeletedAccount] {
        try check()
        return try await inner.deletedAccounts()
    }
}

struct FaultySessions: SessionStoring {
    let inner: SessionStore
    let faults: StoreFaults

    private func check() throws(StoreError) { if let error = faults.current.everything { throw error } }

    func create(
        userID: String, userAgent: String?, ip: String?, now: Date, refreshTTL: Duration, maxLifetime: Duration,
        maxPerUser: Int, dpopThumbprint: String?
    ) async throws(StoreError) -> (session: Session, revoked: Int) {
        try check()
        return try await inner.create(
            userID: userID, userAgent: userAgent, ip: ip, now: now, refreshTTL: refreshTTL, maxLifetime: maxLifetime,
            maxPerUser: maxPerUser, dpopThumbprint: dpopThumbprint)
    }
    func rotate(
        sessionID: String, presentedCounter: Int64, now: Date, grace: Duration, refreshTTL: Duration
    ) async throws(StoreError) -> RotationOutcome {
        try check()
        if let error = faults.current.rotate { throw error }
        return try await inner.rotate(
            sessionID: sessionID, presentedCounter: presentedCounter, now: now, grace: grace, refreshTTL: refreshTTL)
    }
    func revoke(sessionID: String, userID: String?, now: Date) async throws(StoreError) -> Int {
        try check()
        return try await inner.revoke(sessionID: sessionID, userID: userID, now: now)
    }
    func revokeOthers(userID: String, except: String, now: Date) async throws(StoreError) -> Int {
        try check()
        return try await inner.revokeOthers(userID: userID, except: except, now: now)
    }
    func revokeAll(userID: String, now: Date) async throws(StoreError) -> Int {
        try check()
        return try await inner.revokeAll(userID: userID, now: now)
    }
    func liveSessions(userID: String, now: Date, limit: Int, after: SessionPagePosition?) async throws(StoreError)
        -> [Session]
    {
        try check()
        return try await inner.liveSessions(userID: userID, now: now, limit: limit, after: after)
    }
    func find(sessionID: String) async throws(StoreError) -> Session? {
        try check()
        return try await inner.find(sessionID: sessionID)
    }
    func status(sessionID: String) async throws(StoreError) -> SessionStatus? {
        try check()
        faults.update { $0.asyncReads += 1 }
        return try await inner.status(sessionID: sessionID)
    }
    func immediateStatus(sessionID: String) throws(StoreError) -> ImmediateRead<SessionStatus?> {
        try check()
        if faults.current.mustWait { return .mustWait }
        return try inner.immediateStatus(sessionID: sessionID)
    }
    func statusAndCustomerIDs(sessionID: String, userID: String, emailAsRegistered: Bool) async throws(StoreError)
        -> SessionRead
    {
        try check()
        faults.update { $0.asyncReads += 1 }
        return try await inner.statusAndCustomerIDs(
            sessionID: sessionID, userID: userID, emailAsRegistered: emailAsRegistered)
    }
    func immediateStatusAndCustomerIDs(sessionID: String, userID: String, emailAsRegistered: Bool)
        throws(StoreError) -> ImmediateRead<SessionRead>
    {
        try check()
        if faults.current.mustWait { return .mustWait }
        return try inner.immediateStatusAndCustomerIDs(
            sessionID: sessionID, userID: userID, emailAsRegistered: emailAsRegistered)
    }
    func purgeBatch(endedBefore cutoff: Date, limit: Int) async throws(StoreError) -> Int {
        try await inner.purgeBatch(endedBefore: cutoff, limit: limit)
    }
}
