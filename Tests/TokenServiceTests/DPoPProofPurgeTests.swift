import Foundation
import Logging
import SQLiteStore
import Store
import Synchronization
import Testing

@testable import TokenService

/// The session purger's share of DPoP (issue 35): the shared proof ids (`StoreBackend.dpopProofs`, PostgreSQL)
/// expired at the purger's time are pruned with the rest; a failing prune is logged and retried at the next run.
@Suite(.timeLimit(.minutes(1)))
struct DPoPProofPurgeTests {
    /// Proof ids in memory with the semantics of `PostgresDPoPProofStore`, counting the prunes and able to fail.
    final class Proofs: DPoPProofStoring {
        private let state = Mutex<(records: [String: Date], prunes: [Date], failing: Bool)>(([:], [], false))

        var prunes: [Date] { state.withLock { $0.prunes } }
        var hashes: [String] { state.withLock { $0.records.keys.sorted() } }
        func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

        func recordProof(hash: String, expiresAt: Date, now: Date) async throws(StoreError) -> Bool {
            state.withLock { state in
                if let kept = state.records[hash], kept > now { return false }
                state.records[hash] = expiresAt
                return true
            }
        }

        func pruneProofs(expiredBy now: Date) async throws(StoreError) -> Int {
            let failing = state.withLock { state in
                state.prunes.append(now)
                return state.failing
            }
            if failing { throw .unavailable(.unreachable) }
            return state.withLock { state in
                let expired = state.records.filter { $0.value <= now }.keys
                for hash in expired { state.records[hash] = nil }
                return expired.count
            }
        }
    }

    @Test("the session purger deletes the expired DPoP proof ids and keeps the live ones; a failure is retried")
    func purgerPrunesProofs() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-purge-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(configuration: .init(path: folder.appending(path: "t.sqlite").path))
        defer { store.close() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let proofs = Proofs()
        #expect(try await proofs.recordProof(hash: "old", expiresAt: now, now: now.addingTimeInterval(-60)))
        #expect(try await proofs.recordProof(hash: "live", expiresAt: now.addingTimeInterval(1), now: now))
        let logger = Logger(label: "test.purge", factory: { _ in SwiftLogNoOpLogHandler() })
        proofs.fail(true)
        let failing = SessionPurger(sessions: store.sessions, dpopProofs: proofs, logger: logger, now: { now })
        _ = await failing.purgeNow()
        await failing.stop()
        #expect(proofs.prunes == [now] && proofs.hashes == ["live", "old"])
        proofs.fail(false)
        let purger = SessionPurger(sessions: store.sessions, dpopProofs: proofs, logger: logger, now: { now })
        _ = await purger.purgeNow()
        await purger.stop()
        #expect(proofs.prunes == [now, now] && proofs.hashes == ["live"])
        // Without a proof store (SQLite's backend answers nil) the purger has nothing to prune.
        #expect(store.dpopProofs == nil)
    }
}
