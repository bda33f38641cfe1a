import Foundation
import Store
import StoreTesting
import Testing

/// DPoP (issue 35) gives the same answers on SQLite and PostgreSQL: a session bound at its start carries its key's
/// thumbprint in every `Session` and `SessionStatus` the store answers (the status cache too), an unbound one
/// none; the shared proof ids of `DPoPProofStoring` (PostgreSQL; SQLite has none) are recorded once per window,
/// on every instance.
@Suite(.timeLimit(.minutes(1))) struct DPoPContractTests {
    /// The RFC 7638 §3.1 example thumbprint.
    static let thumbprint = "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"

    /// The thumbprint of `status`, or a marker when there is no status (so a missing one never passes for nil).
    static func binding(_ status: SessionStatus?) -> String { status.map { $0.dpopThumbprint ?? "unbound" } ?? "none" }

    /// The thumbprint of an immediate read's status, "wait" when it must wait.
    static func binding<Value>(_ read: ImmediateRead<Value>, status: (Value) -> SessionStatus?) -> String {
        guard case .value(let value) = read else { return "wait" }
        return binding(status(value))
    }

    @Test(
        "a bound session keeps its thumbprint through create, find, status (read and kept), rotation and the list",
        arguments: Backend.allCases)
    func boundSessionRoundTrips(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let ada = try await Fixture.user(store)
            let created = try await store.sessions.create(
                userID: ada.id, userAgent: "ua", ip: "::1", now: Fixture.epoch, refreshTTL: Fixture.ttl,
                maxLifetime: Fixture.cap, maxPerUser: 10, dpopThumbprint: Self.thumbprint)
            let bound = created.session
            let unbound = try await Fixture.session(store, ada, at: 1)
            #expect(bound.dpopThumbprint == Self.thumbprint && unbound.dpopThumbprint == nil)
            #expect(try await store.sessions.find(sessionID: bound.id) == bound)
            #expect(try await store.sessions.find(sessionID: unbound.id) == unbound)
            for session in [bound, unbound] {
                let expected = session.dpopThumbprint ?? "unbound"
                // The first read goes to the database, the second (and the immediate one) may be the kept answer.
                #expect(Self.binding(try await store.sessions.status(sessionID: session.id)) == expected)
                #expect(Self.binding(try await store.sessions.status(sessionID: session.id)) == expected)
                // PostgreSQL answers at once only while its listener is up (`PostgresMigrationElevenTests` waits for it).
                let waits = backend == .postgres ? "wait" : expected
                let immediateStatus = Self.binding(
                    try store.sessions.immediateStatus(sessionID: session.id), status: { $0 })
                #expect(immediateStatus == expected || immediateStatus == waits)
                for _ in 0..<2 {
                    let read = try await store.sessions.statusAndCustomerIDs(
                        sessionID: session.id, userID: ada.id, emailAsRegistered: false)
                    #expect(Self.binding(read.status) == expected && read.customerIDs["registered"] == ada.id)
                }
                let immediate = Self.binding(
                    try store.sessions.immediateStatusAndCustomerIDs(
                        sessionID: session.id, userID: ada.id, emailAsRegistered: false), status: \.status)
                #expect(immediate == expected || immediate == waits)
            }
            // Rotation: the rotated session, the converged retry and the user-reading form keep the binding.
            let rotated = try await store.sessions.rotate(
                sessionID: bound.id, presentedCounter: 0, now: Fixture.at(2), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            guard case .rotated(let after, counter: 1) = rotated else {
                Issue.record("expected a rotation, got \(rotated)")
                return
            }
            #expect(after.dpopThumbprint == Self.thumbprint)
            let retried = try await store.sessions.rotateReadingUser(
                sessionID: bound.id, presentedCounter: 0, now: Fixture.at(3), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            guard case .converged(let converged, counter: 1) = retried.outcome else {
                Issue.record("expected convergence, got \(retried.outcome)")
                return
            }
            #expect(converged.dpopThumbprint == Self.thumbprint && retried.user?.id == ada.id)
            let next = try await store.sessions.rotateReadingUser(
                sessionID: bound.id, presentedCounter: 1, now: Fixture.at(4), grace: Fixture.grace,
                refreshTTL: Fixture.ttl)
            guard case .rotated(let second, counter: 2) = next.outcome else {
                Issue.record("expected a second rotation, got \(next.outcome)")
                return
            }
            #expect(second.dpopThumbprint == Self.thumbprint)
            guard case .rotated(let plain, counter: 1) = try await SessionContractTests.rotate(store, unbound, 0, at: 5)
            else {
                Issue.record("expected the unbound session to rotate")
                return
            }
            #expect(plain.dpopThumbprint == nil)
            // After the writes (which end kept answers), the status is read again, still bound.
            #expect(Self.binding(try await store.sessions.status(sessionID: bound.id)) == Self.thumbprint)
            let listed = try await store.sessions.liveSessions(
                userID: ada.id, now: Fixture.at(6), limit: 10, after: nil)
            #expect(listed.map(\.id) == [unbound.id, bound.id])
            #expect(listed.map(\.dpopThumbprint) == [nil, Self.thumbprint])
        }
    }

    @Test("the proof ids are shared on PostgreSQL and kept in memory on SQLite", arguments: Backend.allCases)
    func proofStorePresence(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            #expect((store.dpopProofs != nil) == (backend == .postgres))
        }
    }

    @Test(
        "a proof is recorded once: a replay is refused until its record expires, then it is recorded again",
        arguments: Backend.allCases.filter { $0 == .postgres })
    func recordOnce(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let proofs = try #require(store.dpopProofs)
            let hash = String(repeating: "a", count: 64)
            #expect(try await proofs.recordProof(hash: hash, expiresAt: Fixture.at(60), now: Fixture.epoch))
            #expect(try await !proofs.recordProof(hash: hash, expiresAt: Fixture.at(61), now: Fixture.at(1)))
            #expect(try await !proofs.recordProof(hash: hash, expiresAt: Fixture.at(120), now: Fixture.at(59.999)))
            // Another proof is independent.
            let other = String(repeating: "b", count: 64)
            #expect(try await proofs.recordProof(hash: other, expiresAt: Fixture.at(90), now: Fixture.at(1)))
            // From its expiry's millisecond on, the record may be taken over; then it holds until the new expiry.
            #expect(try await proofs.recordProof(hash: hash, expiresAt: Fixture.at(120), now: Fixture.at(60)))
            #expect(try await !proofs.recordProof(hash: hash, expiresAt: Fixture.at(180), now: Fixture.at(100)))
            // The prune deletes the expired records only, and counts them.
            #expect(try await proofs.pruneProofs(expiredBy: Fixture.at(89)) == 0)
            #expect(try await proofs.pruneProofs(expiredBy: Fixture.at(90)) == 1)
            #expect(try await proofs.pruneProofs(expiredBy: Fixture.at(90)) == 0)
            #expect(try await !proofs.recordProof(hash: hash, expiresAt: Fixture.at(180), now: Fixture.at(119)))
            #expect(try await proofs.pruneProofs(expiredBy: Fixture.at(120)) == 1)
            #expect(try await proofs.recordProof(hash: hash, expiresAt: Fixture.at(180), now: Fixture.at(119)))
        }
    }

    @Test(
        "two instances on one database see each other's proofs: a replay to the other is refused, racing ones win once",
        arguments: Backend.allCases.filter { $0 == .postgres })
    func twoInstances(backend: Backend) async throws {
        try await backend.withTwo { (first: any StoreBackend, second: any StoreBackend) async throws in
            let one = try #require(first.dpopProofs)
            let two = try #require(second.dpopProofs)
            let hash = String(repeating: "c", count: 64)
            #expect(try await one.recordProof(hash: hash, expiresAt: Fixture.at(60), now: Fixture.epoch))
            #expect(try await !two.recordProof(hash: hash, expiresAt: Fixture.at(60), now: Fixture.at(1)))
            // Twenty racing records of one proof, half on each instance: exactly one is accepted.
            let raced = String(repeating: "d", count: 64)
            let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    let proofs = index.isMultiple(of: 2) ? one : two
                    group.addTask {
                        try await proofs.recordProof(hash: raced, expiresAt: Fixture.at(60), now: Fixture.at(2))
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(accepted == 1)
            // The other instance's prune deletes the first one's expired records.
            #expect(try await two.pruneProofs(expiredBy: Fixture.at(60)) == 2)
            #expect(try await one.recordProof(hash: hash, expiresAt: Fixture.at(120), now: Fixture.at(61)))
        }
    }
}
