import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// Prints rough costs (nothing about time is asserted: the machine is shared). Run alone for figures:
/// `swift test --filter TimingTests` (debug) or with `-c release`.
@Suite struct TimingTests {
    @Test("measures a rotation transaction, a liveness read and a change token")
    func measure() throws {
        try TemporaryDatabase.with { database, _ in
            let user = try Fixture.user(database)
            let sessions = SessionStore(database: database)
            let session = try sessions.create(
                userID: user.id, userAgent: nil, ip: nil, refreshTTL: .seconds(60), maxLifetime: .seconds(600))
            let clock = ContinuousClock()
            let rounds = 200
            var counter: Int64 = 0
            let rotation = try clock.measure {
                for _ in 0..<rounds {
                    let outcome = try sessions.rotate(
                        sessionID: session.id, presentedCounter: counter, grace: .seconds(10), refreshTTL: .seconds(60))
                    if case .rotated(_, let next) = outcome { counter = next }
                }
            }
            #expect(counter == Int64(rounds))
            // The same with synchronous=NORMAL separates the fsync from the CPU cost.
            try database.withWriterConnection { (connection: Connection) throws(StoreError) in
                try connection.executeScript("PRAGMA synchronous = NORMAL")
            }
            let unsynced = try clock.measure {
                for _ in 0..<rounds {
                    let outcome = try sessions.rotate(
                        sessionID: session.id, presentedCounter: counter, grace: .seconds(10), refreshTTL: .seconds(60))
                    if case .rotated(_, let next) = outcome { counter = next }
                }
            }
            #expect(counter == Int64(2 * rounds))
            var live = 0
            let status = try clock.measure {
                for _ in 0..<2000 where try sessions.status(sessionID: session.id)?.revokedAt == nil { live += 1 }
            }
            #expect(live == 2000)
            let token = clock.measure {
                for _ in 0..<2000 { _ = database.changeToken() }
            }
            print(
                "TIMING rotate: \(rotation / rounds) per transaction (synchronous=FULL), "
                    + "\(unsynced / rounds) with synchronous=NORMAL; status: \(status / 2000) per read; "
                    + "changeToken: \(token / 2000)")
        }
    }
}
