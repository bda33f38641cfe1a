import Foundation
import Store
import StoreTesting
import Testing

/// `SessionStoring` gives the same answers on SQLite and PostgreSQL (the caller's clock, for determinism).
@Suite struct SessionContractTests {
    static func rotate(_ store: any StoreBackend, _ session: Session, _ counter: Int64, at seconds: Double)
        async throws -> RotationOutcome
    {
        try await store.sessions.rotate(
            sessionID: session.id, presentedCounter: counter, now: Fixture.at(seconds), grace: Fixture.grace,
            refreshTTL: Fixture.ttl)
    }

    @Test(
        "a new session starts at counter 0, its refresh expiry capped; unknown users are refused",
        arguments: Backend.allCases)
    func create(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let session = try await Fixture.session(store, ada)
            #expect(session.counter == 0 && session.rotatedAt == nil && session.revokedAt == nil)
            #expect(session.refreshExpiresAt == Fixture.at(100) && session.expiresAt == Fixture.at(1000))
            #expect(session.userAgent == "ua" && session.ip == "::1")
            #expect(try await store.sessions.find(sessionID: session.id) == session)
            let short = try await store.sessions.create(
                userID: ada.id, userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: .seconds(5000),
                maxLifetime: .seconds(50), maxPerUser: 10, dpopThumbprint: nil)
            #expect(short.session.refreshExpiresAt == Fixture.at(50) && short.revoked == 0)
            await #expect(throws: StoreError.notFound) {
                try await store.sessions.create(
                    userID: "missing", userAgent: nil, ip: nil, now: Fixture.epoch, refreshTTL: Fixture.ttl,
                    maxLifetime: Fixture.cap, maxPerUser: 10, dpopThumbprint: nil)
            }
            #expect(try await store.sessions.find(sessionID: "missing") == nil)
        }
    }

    @Test("rotation: rotated, converged within grace, reuse after grace revokes", arguments: Backend.allCases)
    func rotation(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let session = try await Fixture.session(store, ada)
            let first = try await Self.rotate(store, session, 0, at: 30)
            guard case .rotated(let rotated, let counter) = first else {
                Issue.record("expected .rotated, got \(first)")
                return
            }
            #expect(counter == 1 && rotated.counter == 1 && rotated.rotatedAt == Fixture.at(30))
            #expect(rotated.lastUsedAt == Fixture.at(30) && rotated.refreshExpiresAt == Fixture.at(130))
            #expect(try await store.sessions.find(sessionID: session.id) == rotated)
            #expect(try await Self.rotate(store, session, 0, at: 40) == .converged(rotated, counter: 1))
            #expect(try await Self.rotate(store, session, 2, at: 40) == .invalid)
            #expect(try await Self.rotate(store, session, -1, at: 40) == .invalid)
            #expect(
                try await Self.rotate(store, session, 0, at: 40.5)
                    == .reuseDetected(sessionID: session.id, userID: ada.id))
            #expect(try await store.sessions.find(sessionID: session.id)?.revokedAt == Fixture.at(40.5))
            #expect(try await Self.rotate(store, session, 1, at: 41) == .invalid)
        }
    }

    @Test(
        "rotation refuses unknown, expired and capped sessions; the refresh expiry never passes the cap",
        arguments: Backend.allCases)
    func rotationLimits(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let session = try await Fixture.session(store, ada)
            #expect(
                try await store.sessions.rotate(
                    sessionID: "missing", presentedCounter: 0, now: Fixture.epoch, grace: Fixture.grace,
                    refreshTTL: Fixture.ttl) == .invalid)
            #expect(try await Self.rotate(store, session, 0, at: 100) == .invalid)
            let other = try await Fixture.session(store, ada)
            var counter: Int64 = 0
            for step in 1...11 {
                let outcome = try await Self.rotate(store, other, counter, at: Double(step) * 95)
                guard case .rotated(let rotated, let next) = outcome else {
                    #expect(step == 11 && outcome == .invalid)
                    break
                }
                #expect(rotated.refreshExpiresAt <= Fixture.at(1000))
                counter = next
            }
            #expect(counter == 10)
            // Grace 0: any older counter is reuse.
            let strict = try await Fixture.session(store, ada, at: 1)
            _ = try await store.sessions.rotate(
                sessionID: strict.id, presentedCounter: 0, now: Fixture.at(2), grace: .zero, refreshTTL: Fixture.ttl)
            #expect(
                try await store.sessions.rotate(
                    sessionID: strict.id, presentedCounter: 0, now: Fixture.at(2), grace: .zero,
                    refreshTTL: Fixture.ttl) == .reuseDetected(sessionID: strict.id, userID: ada.id))
        }
    }

    @Test(
        "rotateReadingUser answers the rotation's outcome with the user read in the same transaction",
        arguments: Backend.allCases)
    func rotationReadsUser(backend: Backend) async throws {
        try await backend.with { store in
            let grace = try await store.users.create(
                id: UUID().uuidString.lowercased(), email: "grace@example.com", passwordHash: "$argon2id$x",
                role: "admin", tenantID: "tenant-7", emailVerifiedAt: Fixture.at(1), now: Fixture.epoch)
            let session = try await Fixture.session(store, grace)
            func rotate(_ counter: Int64, at seconds: Double) async throws -> RotationResult {
                try await store.sessions.rotateReadingUser(
                    sessionID: session.id, presentedCounter: counter, now: Fixture.at(seconds), grace: Fixture.grace,
                    refreshTTL: Fixture.ttl)
            }
            let first = try await rotate(0, at: 30)
            let stored = try #require(try await store.sessions.find(sessionID: session.id))
            #expect(first == RotationResult(outcome: .rotated(stored, counter: 1), user: grace))
            #expect(try await rotate(0, at: 40) == RotationResult(outcome: .converged(stored, counter: 1), user: grace))
            #expect(try await rotate(5, at: 40) == RotationResult(outcome: .invalid, user: nil))
            _ = try await store.users.disable(email: try #require(grace.email), now: Fixture.at(41))
            #expect(try await rotate(1, at: 42) == RotationResult(outcome: .invalid, user: nil))
            let unknown = try await store.sessions.rotateReadingUser(
                sessionID: "missing", presentedCounter: 0, now: Fixture.at(42), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            #expect(unknown == RotationResult(outcome: .invalid, user: nil))
            let ada = try await Fixture.user(store)
            let other = try await Fixture.session(store, ada, at: 50)
            _ = try await Self.rotate(store, other, 0, at: 51)
            let reuse = try await store.sessions.rotateReadingUser(
                sessionID: other.id, presentedCounter: 0, now: Fixture.at(62), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            #expect(reuse == RotationResult(outcome: .reuseDetected(sessionID: other.id, userID: ada.id), user: nil))
            #expect(try await store.sessions.find(sessionID: other.id)?.revokedAt == Fixture.at(62))
        }
    }

    @Test("revoke, revokeOthers and revokeAll count what they revoked and are idempotent", arguments: Backend.allCases)
    func revocations(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let bob = try await Fixture.user(store, email: "bob@example.com")
            let a1 = try await Fixture.session(store, ada)
            let a2 = try await Fixture.session(store, ada, at: 1)
            let a3 = try await Fixture.session(store, ada, at: 2)
            let b1 = try await Fixture.session(store, bob)
            #expect(try await store.sessions.revoke(sessionID: a1.id, userID: bob.id, now: Fixture.at(5)) == 0)
            #expect(try await store.sessions.revoke(sessionID: a1.id, userID: ada.id, now: Fixture.at(5)) == 1)
            #expect(try await store.sessions.revoke(sessionID: a1.id, userID: nil, now: Fixture.at(6)) == 0)
            #expect(try await store.sessions.find(sessionID: a1.id)?.revokedAt == Fixture.at(5))
            #expect(try await store.sessions.revokeOthers(userID: ada.id, except: a3.id, now: Fixture.at(7)) == 1)
            #expect(try await store.sessions.find(sessionID: a2.id)?.revokedAt == Fixture.at(7))
            #expect(try await store.sessions.revokeAll(userID: ada.id, now: Fixture.at(8)) == 1)
            #expect(try await store.sessions.revokeAll(userID: ada.id, now: Fixture.at(9)) == 0)
            #expect(try await store.sessions.find(sessionID: b1.id)?.revokedAt == nil)
            let status = try await store.sessions.status(sessionID: a3.id)
            #expect(status?.revokedAt == Fixture.at(8) && status?.userID == ada.id)
        }
    }

    @Test("live sessions page by last use, then id, and skip revoked and expired ones", arguments: Backend.allCases)
    func paging(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            var created: [Session] = []
            for index in 0..<5 { created.append(try await Fixture.session(store, ada, at: Double(index))) }
            let tie = try await Fixture.session(store, ada, at: 4)
            _ = try await store.sessions.revoke(sessionID: created[1].id, userID: nil, now: Fixture.at(5))
            let expected = [created[4], tie].sorted { $0.id < $1.id } + [created[3], created[2], created[0]]
            var seen: [Session] = []
            var after: SessionPagePosition?
            repeat {
                let page = try await store.sessions.liveSessions(
                    userID: ada.id, now: Fixture.at(10), limit: 2, after: after)
                seen += page
                after = page.count == 2 ? page.last.map(SessionPagePosition.init(after:)) : nil
            } while after != nil
            #expect(seen.map(\.id) == expected.map(\.id))
            #expect(
                try await store.sessions.liveSessions(userID: ada.id, now: Fixture.at(200), limit: 9, after: nil)
                    .isEmpty)
        }
    }

    @Test(
        "the per-user cap revokes the least recently used live sessions, never the new one", arguments: Backend.allCases
    )
    func cap(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let oldest = try await Fixture.session(store, ada, at: 0)
            let middle = try await Fixture.session(store, ada, at: 1)
            let newest = try await store.sessions.create(
                userID: ada.id, userAgent: nil, ip: nil, now: Fixture.at(2), refreshTTL: Fixture.ttl,
                maxLifetime: Fixture.cap, maxPerUser: 2, dpopThumbprint: nil)
            #expect(newest.revoked == 1)
            #expect(try await store.sessions.find(sessionID: oldest.id)?.revokedAt == Fixture.at(2))
            #expect(try await store.sessions.find(sessionID: middle.id)?.revokedAt == nil)
            let only = try await store.sessions.create(
                userID: ada.id, userAgent: nil, ip: nil, now: Fixture.at(3), refreshTTL: Fixture.ttl,
                maxLifetime: Fixture.cap, maxPerUser: 1, dpopThumbprint: nil)
            #expect(only.revoked == 2)
            #expect(try await store.sessions.find(sessionID: only.session.id)?.revokedAt == nil)
        }
    }

    @Test("purge deletes sessions that ended before the cutoff, in batches", arguments: Backend.allCases)
    func purge(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let revoked = try await Fixture.session(store, ada)
            _ = try await store.sessions.revoke(sessionID: revoked.id, userID: nil, now: Fixture.at(1))
            let expired = try await Fixture.session(store, ada)  // refresh ends at 100
            let live = try await Fixture.session(store, ada, at: 150)
            #expect(try await store.sessions.purgeBatch(endedBefore: Fixture.at(200), limit: 1) == 1)
            #expect(try await store.sessions.purgeBatch(endedBefore: Fixture.at(200), limit: 10) == 1)
            #expect(try await store.sessions.purgeBatch(endedBefore: Fixture.at(200), limit: 10) == 0)
            #expect(try await store.sessions.find(sessionID: revoked.id) == nil)
            #expect(try await store.sessions.find(sessionID: expired.id) == nil)
            #expect(try await store.sessions.find(sessionID: live.id) != nil)
        }
    }

    @Test("status and customer ids are read together; a revocation is seen at once", arguments: Backend.allCases)
    func statusReads(backend: Backend) async throws {
        try await backend.with { store in
            let ada = try await Fixture.user(store)
            let session = try await Fixture.session(store, ada)
            let read = try await store.sessions.statusAndCustomerIDs(
                sessionID: session.id, userID: ada.id, emailAsRegistered: false)
            #expect(read.status?.userID == ada.id && read.status?.revokedAt == nil)
            #expect(read.status?.expiresAt == Fixture.at(1000) && read.status?.refreshExpiresAt == Fixture.at(100))
            #expect(read.customerIDs == ["registered": ada.id])
            #expect(try await store.sessions.status(sessionID: session.id)?.revokedAt == nil)
            _ = try await store.sessions.revoke(sessionID: session.id, userID: nil, now: Fixture.at(3))
            #expect(try await store.sessions.status(sessionID: session.id)?.revokedAt == Fixture.at(3))
            let after = try await store.sessions.statusAndCustomerIDs(
                sessionID: session.id, userID: ada.id, emailAsRegistered: false)
            #expect(after.status?.revokedAt == Fixture.at(3))
            if case .value(let immediate) = try store.sessions.immediateStatus(sessionID: session.id) {
                #expect(immediate?.revokedAt == Fixture.at(3))
            }
            let missing = try await store.sessions.statusAndCustomerIDs(
                sessionID: "missing", userID: "missing", emailAsRegistered: false)
            #expect(missing.status == nil && missing.customerIDs.isEmpty)
        }
    }

    @Test(
        "the registered id of a user without an email is its id, even with a verified time set",
        arguments: Backend.allCases)
    func registeredWithoutEmail(backend: Backend) async throws {
        try await backend.with { store in
            let user = try await store.users.create(
                id: "u-noemail", email: nil, passwordHash: nil, role: "user", tenantID: nil,
                emailVerifiedAt: Fixture.at(1), now: Fixture.epoch)
            let session = try await Fixture.session(store, user)
            let read = try await store.sessions.statusAndCustomerIDs(
                sessionID: session.id, userID: user.id, emailAsRegistered: true)
            #expect(read.status?.userID == user.id)
            #expect(read.customerIDs == ["registered": "u-noemail"])
            if case .value(let immediate) = try store.sessions.immediateStatusAndCustomerIDs(
                sessionID: session.id, userID: user.id, emailAsRegistered: true)
            {
                #expect(immediate.customerIDs == ["registered": "u-noemail"])
            }
        }
    }
}
