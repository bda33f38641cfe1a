import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SQLiteStore
@testable import Store

@Suite struct ConcurrencyTests {
    static let ttl = Duration.seconds(100)

    /// Presents counter 0 of one session from 50 threads at once and returns the outcomes.
    static func race(grace: Duration) throws -> (outcomes: [RotationOutcome], final: Session?, errors: [StoreError]) {
        try TemporaryDatabase.with { database, _ in
            let user = try Fixture.user(database)
            let sessions = SessionStore(database: database)
            let session = try sessions.create(
                userID: user.id, userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: ttl,
                maxLifetime: .seconds(900))
            let results = Mutex<[Result<RotationOutcome, StoreError>]>([])
            DispatchQueue.concurrentPerform(iterations: 50) { index in
                let result = Result { () throws(StoreError) -> RotationOutcome in
                    try sessions.rotate(
                        sessionID: session.id, presentedCounter: 0,
                        now: Fixture.epoch.addingTimeInterval(1 + Double(index) / 1000), grace: grace,
                        refreshTTL: ttl)
                }
                results.withLock { $0.append(result) }
            }
            let all = results.withLock { $0 }
            let outcomes = all.compactMap { try? $0.get() }
            let errors = all.compactMap { result -> StoreError? in
                if case .failure(let error) = result { return error }
                return nil
            }
            return (outcomes, try sessions.find(sessionID: session.id), errors)
        }
    }

    @Test("50 racing rotations of one counter with grace: one rotates, the rest converge, nothing is revoked")
    func raceWithGrace() throws {
        let (outcomes, final, errors) = try Self.race(grace: .seconds(10))
        #expect(errors.isEmpty)
        let rotated = outcomes.filter { if case .rotated = $0 { true } else { false } }
        let converged = outcomes.compactMap { outcome -> Int64? in
            if case .converged(_, let counter) = outcome { return counter }
            return nil
        }
        #expect(rotated.count == 1)
        #expect(converged.count == 49 && converged.allSatisfy { $0 == 1 })
        #expect(final?.counter == 1 && final?.revokedAt == nil)
    }

    @Test("50 racing rotations with grace 0: one rotates, the rest detect reuse and the session is revoked")
    func raceWithoutGrace() throws {
        let (outcomes, final, errors) = try Self.race(grace: .zero)
        #expect(errors.isEmpty)
        let rotated = outcomes.filter { if case .rotated = $0 { true } else { false } }
        let reused = outcomes.filter { if case .reuseDetected = $0 { true } else { false } }
        let invalid = outcomes.filter { $0 == .invalid }
        #expect(rotated.count == 1)
        // The first reuse revokes the session; later presentations find it revoked.
        #expect(reused.count == 1 && invalid.count == 48)
        #expect(final?.revokedAt != nil)
    }

    @Test("racing async rotations from tasks behave the same and never block the cooperative pool")
    func asyncRace() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        let user = try await UserStore(database: database).create(email: "a@example.com", passwordHash: "h")
        let sessions = SessionStore(database: database)
        let session = try await sessions.create(
            userID: user.id, userAgent: nil, ip: nil, refreshTTL: Self.ttl, maxLifetime: .seconds(900))
        let outcomes = try await withThrowingTaskGroup(of: RotationOutcome.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await sessions.rotate(
                        sessionID: session.id, presentedCounter: 0, grace: .seconds(10), refreshTTL: Self.ttl)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count { if case .rotated = $0 { true } else { false } } == 1)
        #expect(outcomes.count { if case .converged(_, 1) = $0 { true } else { false } } == 49)
    }

    @Test("racing async rotations with grace 0: one rotates, one detects reuse, the rest find it revoked")
    func asyncRaceWithoutGrace() async throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        let user = try await UserStore(database: database).create(email: "a@example.com", passwordHash: "h")
        let sessions = SessionStore(database: database)
        let session = try await sessions.create(
            userID: user.id, userAgent: nil, ip: nil, refreshTTL: Self.ttl, maxLifetime: .seconds(900))
        let outcomes = try await withThrowingTaskGroup(of: RotationOutcome.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await sessions.rotate(
                        sessionID: session.id, presentedCounter: 0, grace: .zero, refreshTTL: Self.ttl)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count { if case .rotated = $0 { true } else { false } } == 1)
        #expect(outcomes.count { if case .reuseDetected = $0 { true } else { false } } == 1)
        #expect(outcomes.count { $0 == .invalid } == 48)
        #expect(try await sessions.find(sessionID: session.id)?.revokedAt != nil)
    }

    @Test("two Database instances on one file (server and CLI) both write concurrently without lock errors")
    func twoInstances() throws {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let server = try temporary.open()
        let cli = try temporary.open()
        defer {
            server.close()
            cli.close()
        }
        let errors = Mutex<[StoreError]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let database = index.isMultiple(of: 2) ? server : cli
            do throws(StoreError) {
                let user = try UserStore(database: database).create(
                    email: "user\(index)@example.com", passwordHash: Fixture.hash)
                try SessionStore(database: database).create(
                    userID: user.id, userAgent: nil, ip: nil, refreshTTL: Self.ttl, maxLifetime: .seconds(900))
                _ = try UserStore(database: index.isMultiple(of: 3) ? server : cli).list()
            } catch {
                errors.withLock { $0.append(error) }
            }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        #expect(try UserStore(database: server).list().count == 40)
        #expect(try UserStore(database: cli).list().count == 40)
    }
}
