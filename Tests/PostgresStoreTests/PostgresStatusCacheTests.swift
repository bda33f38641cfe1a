import Foundation
import Store
import Synchronization
import Testing

@testable import PostgresStore

/// The status cache across instances: LISTEN/NOTIFY ends kept answers at once, the lifetime bounds the rest.
@Suite(.timeLimit(.minutes(1))) struct PostgresStatusCacheTests {
    /// Waits (polling every 5 ms) until `condition` holds or `limit` passes; returns how long it took, or nil.
    static func time(within limit: Duration, _ condition: () async throws -> Bool) async rethrows -> Duration? {
        let started = ContinuousClock.now
        while started.duration(to: .now) < limit {
            if try await condition() { return started.duration(to: .now) }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Waits until the store's listener is connected (caching allowed).
    static func listening(_ store: PostgresStore) async -> Bool {
        await time(within: .seconds(5)) { store.changes.changeStamp() != nil } != nil
    }

    @Test("a revocation through store A ends store B's kept answer within 100 ms")
    func notifiedAcrossStores() async throws {
        let database = try await PostgresTestDatabase.make()
        let a = try await database.open(statusCacheLifetime: .seconds(60))
        let b = try await database.open(statusCacheLifetime: .seconds(60))
        defer {
            a.close()
            b.close()
        }
        #expect(await Self.listening(b))
        let user = try await Fixture.user(a)
        let session = try await Fixture.session(a, user)
        #expect(try await b.sessions.status(sessionID: session.id)?.revokedAt == nil)
        guard case .value(let kept) = try b.sessions.immediateStatus(sessionID: session.id) else {
            Issue.record("B did not keep its answer")
            return
        }
        #expect(kept?.revokedAt == nil)
        _ = try await a.sessions.revoke(sessionID: session.id, userID: nil, now: Fixture.at(1))
        let seen = try await Self.time(within: .seconds(2)) {
            try await b.sessions.status(sessionID: session.id)?.revokedAt == Fixture.at(1)
        }
        let elapsed = try #require(seen)
        #expect(elapsed < .milliseconds(100))
        await database.remove()
    }

    @Test("immediate reads answer only from the cache and never wait")
    func immediateOnlyFromCache() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(statusCacheLifetime: .seconds(60))
        defer { store.close() }
        #expect(await Self.listening(store))
        let user = try await Fixture.user(store)
        let session = try await Fixture.session(store, user)
        guard case .mustWait = try store.sessions.immediateStatus(sessionID: session.id) else {
            Issue.record("answered without a kept answer")
            return
        }
        guard
            case .mustWait = try store.sessions.immediateStatusAndCustomerIDs(
                sessionID: session.id, userID: user.id, emailAsRegistered: false)
        else {
            Issue.record("answered without a kept answer")
            return
        }
        _ = try await store.sessions.statusAndCustomerIDs(
            sessionID: session.id, userID: user.id, emailAsRegistered: false)
        guard
            case .value(let read) = try store.sessions.immediateStatusAndCustomerIDs(
                sessionID: session.id, userID: user.id, emailAsRegistered: false)
        else {
            Issue.record("no kept answer after a read")
            return
        }
        #expect(read.customerIDs == ["registered": user.id] && read.status?.userID == user.id)
        // A local write ends it at once.
        try await store.users.setCustomerID(email: user.email, key: "crm", value: "c-1")
        guard
            case .mustWait = try store.sessions.immediateStatusAndCustomerIDs(
                sessionID: session.id, userID: user.id, emailAsRegistered: false)
        else {
            Issue.record("kept answer survived a write")
            return
        }
        await database.remove()
    }

    @Test("a change nobody notifies is seen after at most the cache lifetime")
    func lifetimeBoundsStaleness() async throws {
        let database = try await PostgresTestDatabase.make()
        let store = try await database.open(statusCacheLifetime: .milliseconds(300))
        defer { store.close() }
        #expect(await Self.listening(store))
        let user = try await Fixture.user(store)
        let session = try await Fixture.session(store, user)
        #expect(try await store.sessions.status(sessionID: session.id)?.revokedAt == nil)
        let changed = ContinuousClock.now
        try await database.query("UPDATE sessions SET revoked_at = 5 WHERE id = '\(session.id)'")
        let seen = try await Self.time(within: .seconds(2)) {
            try await store.sessions.status(sessionID: session.id)?.revokedAt != nil
        }
        #expect(seen != nil)
        #expect(changed.duration(to: .now) < .milliseconds(300) + .milliseconds(200))
        await database.remove()
    }

    @Test("with the listener killed, kept answers end at once and caching resumes once it reconnects")
    func listenerKilled() async throws {
        let database = try await PostgresTestDatabase.make()
        let a = try await database.open(statusCacheLifetime: .seconds(60))
        let b = try await database.open(statusCacheLifetime: .seconds(60))
        defer {
            a.close()
            b.close()
        }
        #expect(await Self.listening(b))
        let user = try await Fixture.user(a)
        let session = try await Fixture.session(a, user)
        _ = try await b.sessions.status(sessionID: session.id)
        let listener = b.changes.listenerProcessID.load(ordering: .sequentiallyConsistent)
        try #require(listener != 0)
        try await database.query("SELECT pg_terminate_backend(\(listener))")
        // A revocation made while B's listener is gone must not be hidden by B's kept answer.
        _ = try await a.sessions.revoke(sessionID: session.id, userID: nil, now: Fixture.at(1))
        let seen = try await Self.time(within: .seconds(2)) {
            try await b.sessions.status(sessionID: session.id)?.revokedAt == Fixture.at(1)
        }
        #expect(seen != nil)
        // It reconnects by itself, with a new server process.
        let reconnected = await Self.time(within: .seconds(5)) {
            let current = b.changes.listenerProcessID.load(ordering: .sequentiallyConsistent)
            return current != 0 && current != listener && b.changes.changeStamp() != nil
        }
        #expect(reconnected != nil)
        await database.remove()
    }
}
