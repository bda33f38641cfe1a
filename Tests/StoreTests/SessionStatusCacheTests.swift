import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// The liveness check answered from memory (`SessionStatusCache`): kept answers are used only while no write
/// transaction has ended on the file, in this process or another, and never longer than their lifetime.
@Suite(.timeLimit(.minutes(1))) struct SessionStatusCacheTests {
    static let databaseVariable = "TOKENVEND_STATUS_CHILD_DB"
    static let sessionVariable = "TOKENVEND_STATUS_CHILD_SESSION"

    /// A user with one live session.
    static func liveSession(_ database: Database) throws -> (user: User, session: Session) {
        let user = try Fixture.user(database)
        let session = try SessionStore(database: database).create(
            userID: user.id, userAgent: nil, ip: nil, refreshTTL: .seconds(3600), maxLifetime: .seconds(7200))
        return (user, session)
    }

    /// Revokes `sessionID` with a raw SQLite connection: a change the commit counter cannot see.
    static func revokeBehindTheCounter(_ path: String, sessionID: String) throws {
        // SQLITE_OPEN_READWRITE
        let connection = try Connection(path: path, flags: 0x2)
        try connection.execute(
            "UPDATE sessions SET revoked_at = 1 WHERE id = ?", [.text(sessionID)])
    }

    @Test("an answer is kept between writes, and only for its lifetime when the counter cannot see a change")
    func keptForItsLifetime() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .seconds(1))
        defer { database.close() }
        let (_, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt == nil)

        try Self.revokeBehindTheCounter(temporary.path, sessionID: session.id)
        // Within the lifetime the kept answer stands: proof the read was not repeated.
        #expect(try sessions.status(sessionID: session.id)?.revokedAt == nil)
        try #require(database.statusCache?.count == 1)

        Thread.sleep(forTimeInterval: 1.05)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt != nil)
    }

    @Test("a logout through this database is seen by the very next check (synchronous write)")
    func ownWriteSeenAtOnce() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .seconds(60))
        defer { database.close() }
        let (_, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt == nil)
        #expect(try sessions.revoke(sessionID: session.id) == 1)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt != nil)
    }

    @Test("a logout through this database is seen by the very next check (group-committed write)")
    func ownGroupCommitSeenAtOnce() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .seconds(60))
        defer { database.close() }
        let (user, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        #expect(try await sessions.status(sessionID: session.id)?.revokedAt == nil)
        #expect(try await sessions.status(sessionID: session.id)?.revokedAt == nil)
        #expect(try await sessions.revokeAll(userID: user.id) == 1)
        #expect(try await sessions.status(sessionID: session.id)?.revokedAt != nil)
    }

    @Test("a revocation and a customer-id change by another Database on the file are seen at once")
    func otherDatabaseSeenAtOnce() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .seconds(60))
        defer { database.close() }
        let (user, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        let before = try sessions.statusAndCustomerIDs(sessionID: session.id, userID: user.id)
        #expect(before.status?.revokedAt == nil && before.customerIDs == ["registered": user.id])

        let other = try temporary.open()
        try UserStore(database: other).setCustomerID(email: try #require(user.email), key: "crm", value: "C-7")
        let after = try sessions.statusAndCustomerIDs(sessionID: session.id, userID: user.id)
        #expect(after.customerIDs == ["registered": user.id, "crm": "C-7"])

        #expect(try UserStore(database: other).disable(email: try #require(user.email)) == 1)
        other.close()
        #expect(try sessions.status(sessionID: session.id)?.revokedAt != nil)
        #expect(try sessions.statusAndCustomerIDs(sessionID: session.id, userID: user.id).status?.revokedAt != nil)
    }

    @Test("a revocation committed by another process is seen by the next check")
    func otherProcessSeenAtOnce() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .seconds(60))
        defer { database.close() }
        let (_, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt == nil)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt == nil)

        let child = Process()
        child.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "statusChildRevoker"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = temporary.path
        environment[Self.sessionVariable] = session.id
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        try #require(child.terminationStatus == 0)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt != nil)
    }

    /// The child side of `otherProcessSeenAtOnce`; runs only when that test starts it.
    @Test(
        "status child: revokes one session and exits",
        .enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func statusChildRevoker() throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment[Self.databaseVariable])
        let sessionID = try #require(environment[Self.sessionVariable])
        let database = try Database(configuration: .init(path: path))
        defer { database.close() }
        #expect(try SessionStore(database: database).revoke(sessionID: sessionID) == 1)
    }

    @Test("an unknown session's answer is kept too, and a new session ends it")
    func unknownSessionThenCreated() throws {
        try TemporaryDatabase.with { database, _ in
            let sessions = SessionStore(database: database)
            #expect(try sessions.status(sessionID: "no-such-session") == nil)
            #expect(database.statusCache?.count == 1)
            let (_, session) = try Self.liveSession(database)
            #expect(try sessions.status(sessionID: session.id) != nil)
            #expect(try sessions.status(sessionID: "no-such-session") == nil)
        }
    }

    @Test("a lifetime of zero reads the database every time")
    func zeroLifetimeDisables() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .zero)
        defer { database.close() }
        #expect(database.statusCache == nil)
        let (_, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt == nil)
        try Self.revokeBehindTheCounter(temporary.path, sessionID: session.id)
        #expect(try sessions.status(sessionID: session.id)?.revokedAt != nil)
    }

    @Test("customer ids are kept per user and flag: other arguments read again")
    func customerIDsKeyedByArguments() throws {
        try TemporaryDatabase.with { database, _ in
            let (user, session) = try Self.liveSession(database)
            try UserStore(database: database).markEmailVerified(email: try #require(user.email))
            let sessions = SessionStore(database: database)
            let plain = try sessions.statusAndCustomerIDs(sessionID: session.id, userID: user.id)
            let email = try sessions.statusAndCustomerIDs(
                sessionID: session.id, userID: user.id, emailAsRegistered: true)
            #expect(plain.customerIDs == ["registered": user.id])
            #expect(email.customerIDs == ["registered": user.email])
            let stranger = try sessions.statusAndCustomerIDs(sessionID: session.id, userID: "someone-else")
            #expect(stranger.customerIDs == [:] && stranger.status?.userID == user.id)
        }
    }

    @Test("a closed database answers nothing from memory, and lets go of the counter file")
    func closedAnswersNothing() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open(statusCacheLifetime: .seconds(60))
        let (_, session) = try Self.liveSession(database)
        let sessions = SessionStore(database: database)
        #expect(try sessions.status(sessionID: session.id) != nil)
        let counter = database.commitCounter
        let shared = try temporary.open()
        defer { shared.close() }
        database.close()
        #expect(throws: StoreError.unavailable(.closed)) { try sessions.status(sessionID: session.id) }
        // Detached: writes by others no longer move this process's copy.
        let detached = counter.value
        _ = try Fixture.user(shared, email: "bob@example.com")
        #expect(counter.value == detached)
    }

    @Test("a database opened through a symbolic link shares the counter of the file it points to")
    func symbolicLinkSharesCounter() throws {
        try TemporaryDatabase.with { database, temporary in
            let link = temporary.folder.appendingPathComponent("link.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: temporary.path)
            let linked = try Database(configuration: .init(path: link))
            defer { linked.close() }
            #expect(linked.commitCounter.path == database.commitCounter.path)
            let before = database.commitCounter.value
            _ = try Fixture.user(linked, email: "bob@example.com")
            #expect(database.commitCounter.value > before)
        }
    }

    @Test("a database whose counter file cannot be made refuses to open: its writes would go unseen")
    func counterRequired() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        try FileManager.default.createDirectory(
            atPath: temporary.path + "-commits", withIntermediateDirectories: false)
        #expect(throws: StoreError.unavailable(.cannotOpen)) { try temporary.open() }
    }

    @Test("the cache holds at most its capacity")
    func bounded() throws {
        try TemporaryDatabase.with { database, _ in
            let counter = database.commitCounter
            let cache = SessionStatusCache(counter: counter, lifetime: .seconds(60), capacity: 64)
            for index in 0..<1000 { cache.store(nil, for: "s\(index)", stamp: cache.stamp()) }
            #expect(cache.count <= 64 && cache.count > 0)
        }
    }

    @Test("an answer read before a write ended is not kept")
    func staleStampRefused() throws {
        try TemporaryDatabase.with { database, _ in
            let counter = database.commitCounter
            let cache = SessionStatusCache(counter: counter, lifetime: .seconds(60))
            let stamp = cache.stamp()
            _ = try Self.liveSession(database)
            cache.store(nil, for: "s1", stamp: stamp)
            #expect(cache.count == 0)
            #expect(cache.status("s1") == nil)
        }
    }

    @Test("the counter file is private (0600) and shared by every Database on the file")
    func counterFile() throws {
        try TemporaryDatabase.with { database, temporary in
            let counter = database.commitCounter
            let attributes = try FileManager.default.attributesOfItem(atPath: counter.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let other = try temporary.open()
            defer { other.close() }
            let before = counter.value
            _ = try Fixture.user(other, email: "bob@example.com")
            #expect(counter.value > before)
        }
    }
}
