import Foundation
import Store
import StoreTesting
import Testing

@testable import PostgresStore

/// Rotation across instances: the row lock, the database clock and the lock timeout.
@Suite(.timeLimit(.minutes(1))) struct PostgresRotationTests {
    @Test("20 concurrent rotations of one token through two stores: one rotates, the rest converge on its counter")
    func racingRotations() async throws {
        let database = try await PostgresTestDatabase.make()
        let a = try await database.open(clock: .database)
        let b = try await database.open(clock: .database)
        defer {
            a.close()
            b.close()
        }
        let user = try await a.users.create(email: "ada@example.com", passwordHash: Fixture.hash)
        let session = try await a.sessions.create(
            userID: user.id, userAgent: nil, ip: nil, now: Date(), refreshTTL: .seconds(3600),
            maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
        ).session
        let outcomes = try await withThrowingTaskGroup(of: RotationOutcome.self) { group in
            for index in 0..<20 {
                let store = index % 2 == 0 ? a : b
                group.addTask {
                    try await store.sessions.rotate(
                        sessionID: session.id, presentedCounter: 0, now: Date(), grace: .seconds(30),
                        refreshTTL: .seconds(3600))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        var rotated = 0
        var converged = 0
        for outcome in outcomes {
            switch outcome {
            case .rotated(_, let counter):
                rotated += 1
                #expect(counter == 1)
            case .converged(_, let counter):
                converged += 1
                #expect(counter == 1)
            default: Issue.record("unexpected \(outcome)")
            }
        }
        #expect(rotated == 1 && converged == 19)
        let stored = try await b.sessions.find(sessionID: session.id)
        #expect(stored?.revokedAt == nil && stored?.counter == 1)
        await database.remove()
    }

    @Test("with the database clock, a spent token presented after the grace window revokes the session")
    func reuseAfterGrace() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(clock: .database)
        defer { store.close() }
        let user = try await store.users.create(email: "ada@example.com", passwordHash: Fixture.hash)
        // The caller's `now` is far in the past: with the database clock it must not matter.
        let old = Date(timeIntervalSince1970: 0)
        let session = try await store.sessions.create(
            userID: user.id, userAgent: nil, ip: nil, now: old, refreshTTL: .seconds(3600),
            maxLifetime: .seconds(86_400), maxPerUser: 10, dpopThumbprint: nil
        ).session
        #expect(abs(session.createdAt.timeIntervalSinceNow) < 60)
        let grace = Duration.milliseconds(200)
        guard
            case .rotated = try await store.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: old, grace: grace, refreshTTL: .seconds(3600))
        else {
            Issue.record("first rotation did not rotate")
            return
        }
        let within = try await store.sessions.rotate(
            sessionID: session.id, presentedCounter: 0, now: old, grace: grace, refreshTTL: .seconds(3600))
        guard case .converged = within else {
            Issue.record("expected .converged within the grace window, got \(within)")
            return
        }
        try await Task.sleep(for: .milliseconds(300))
        let after = try await store.sessions.rotate(
            sessionID: session.id, presentedCounter: 0, now: old, grace: grace, refreshTTL: .seconds(3600))
        #expect(after == .reuseDetected(sessionID: session.id, userID: user.id))
        #expect(try await store.sessions.find(sessionID: session.id)?.revokedAt != nil)
        await database.remove()
    }

    @Test("a session row held FOR UPDATE elsewhere makes rotation fail with lockTimeout after about the lock timeout")
    func lockTimeout() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(lockTimeout: .milliseconds(300))
        defer { store.close() }
        let user = try await Fixture.user(store)
        let session = try await Fixture.session(store, user)
        let holder = try PostgresConnection(
            url: try PostgresURL(database.url),
            settings: PostgresConnection.Settings(configuration: database.configuration()))
        _ = try holder.run(
            [.begin, PostgresStatement(unprepared: "SELECT 1 FROM sessions WHERE id = '\(session.id)' FOR UPDATE")],
            deadline: holder.deadline)
        let started = ContinuousClock.now
        await #expect(throws: StoreError.unavailable(.lockTimeout)) {
            try await store.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Fixture.at(1), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
        }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(250) && waited < .seconds(2))
        _ = try holder.run([.rollback], deadline: holder.deadline)
        // The pool rolled back the failed transaction: the next rotation works.
        guard
            case .rotated = try await store.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Fixture.at(1), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
        else {
            Issue.record("rotation after the lock was released did not rotate")
            return
        }
        await database.remove()
    }

    @Test("a statement past the query timeout fails with timedOut")
    func statementTimeout() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(lockTimeout: .seconds(30), queryTimeout: .milliseconds(300))
        defer { store.close() }
        let user = try await Fixture.user(store)
        let session = try await Fixture.session(store, user)
        let holder = try PostgresConnection(
            url: try PostgresURL(database.url),
            settings: PostgresConnection.Settings(configuration: database.configuration()))
        _ = try holder.run(
            [.begin, PostgresStatement(unprepared: "SELECT 1 FROM sessions WHERE id = '\(session.id)' FOR UPDATE")],
            deadline: holder.deadline)
        let started = ContinuousClock.now
        await #expect(throws: StoreError.unavailable(.timedOut)) {
            try await store.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Fixture.at(1), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
        }
        #expect(started.duration(to: .now) < .seconds(2))
        _ = try holder.run([.rollback], deadline: holder.deadline)
        await database.remove()
    }
}
