import Foundation
import Store
import StoreTesting
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
        try await store.users.setCustomerID(email: try #require(user.email), key: "crm", value: "c-1")
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

    /// Every write that changes what another instance may have kept, done through store A.
    enum NotifyingPath: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case revokeOthers, revokeAll, reuseDetection, sessionCap, disable, setCustomerID, markEmailVerified
        case markEmailVerifiedByCode, changeEmail, replacePassword

        var testDescription: String { rawValue }
    }

    @Test(
        "every path that changes a kept answer reaches store B (60 s cache) within 100 ms",
        arguments: NotifyingPath.allCases)
    func everyPathNotifies(_ path: NotifyingPath) async throws {
        let database = try await PostgresTestDatabase.make()
        let a = try await database.open(statusCacheLifetime: .seconds(60))
        let b = try await database.open(statusCacheLifetime: .seconds(60))
        defer {
            a.close()
            b.close()
        }
        #expect(await Self.listening(b))
        let user = try await Fixture.user(a)
        let other = try await Fixture.session(a, user)
        let session = try await Fixture.session(a, user, at: 1)
        // The session whose answer B keeps: `other` for the paths that keep `session` (revokeOthers,
        // replacePassword) or revoke the least recently used one (sessionCap), else `session`.
        let watched = [.revokeOthers, .sessionCap, .replacePassword].contains(path) ? other : session
        func read() async throws -> SessionRead {
            try await b.sessions.statusAndCustomerIDs(sessionID: watched.id, userID: user.id, emailAsRegistered: true)
        }
        let before = try await read()
        #expect(before.status?.revokedAt == nil && before.customerIDs == ["registered": user.id])
        guard
            case .value = try b.sessions.immediateStatusAndCustomerIDs(
                sessionID: watched.id, userID: user.id, emailAsRegistered: true)
        else {
            Issue.record("B did not keep its answer")
            return
        }
        let changed: @Sendable (SessionRead) -> Bool
        switch path {
        case .revokeOthers:
            #expect(try await a.sessions.revokeOthers(userID: user.id, except: session.id, now: Fixture.at(2)) == 1)
            changed = { $0.status?.revokedAt != nil }
        case .revokeAll:
            #expect(try await a.sessions.revokeAll(userID: user.id, now: Fixture.at(2)) == 2)
            changed = { $0.status?.revokedAt != nil }
        case .reuseDetection:
            _ = try await a.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Fixture.at(2), grace: .zero, refreshTTL: Fixture.ttl)
            let outcome = try await a.sessions.rotate(
                sessionID: session.id, presentedCounter: 0, now: Fixture.at(3), grace: .zero, refreshTTL: Fixture.ttl)
            guard case .reuseDetected = outcome else {
                Issue.record("expected reuse detection, got \(outcome)")
                return
            }
            changed = { $0.status?.revokedAt != nil }
        case .sessionCap:
            // A third session with a cap of 2 revokes the least recently used one (`other`).
            _ = try await Fixture.session(a, user, at: 2, maxPerUser: 2)
            changed = { $0.status?.revokedAt != nil }
        case .disable:
            #expect(try await a.users.disable(email: try #require(user.email), now: Fixture.at(2)) == 2)
            changed = { $0.status?.revokedAt != nil }
        case .setCustomerID:
            try await a.users.setCustomerID(email: try #require(user.email), key: "crm", value: "c-1")
            changed = { $0.customerIDs["crm"] == "c-1" }
        case .markEmailVerified:
            try await a.users.markEmailVerified(email: try #require(user.email), now: Fixture.at(2))
            changed = { $0.customerIDs["registered"] == user.email }
        case .markEmailVerifiedByCode:
            _ = try await a.users.markEmailVerified(userID: user.id, source: .emailCode, now: Fixture.at(2))
            changed = { $0.customerIDs["registered"] == user.email }
        case .changeEmail:
            _ = try await a.users.changeEmail(userID: user.id, to: "moved@example.com", now: Fixture.at(2))
            changed = { $0.customerIDs["registered"] == "moved@example.com" }
        case .replacePassword:
            #expect(
                try await a.users.replacePassword(
                    userID: user.id, hash: "$argon2id$new", keeping: session.id, now: Fixture.at(2)) == 1)
            changed = { $0.status?.revokedAt != nil }
        }
        let seen = try await Self.time(within: .seconds(2)) { changed(try await read()) }
        let elapsed = try #require(seen, "B never saw the change")
        #expect(elapsed < .milliseconds(100))
        await database.remove()
    }
}
