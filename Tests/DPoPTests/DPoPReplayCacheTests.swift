import DPoP
import Foundation
import JWT
import Testing

@Suite struct DPoPReplayCacheTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    func at(_ seconds: TimeInterval) -> Date { Self.start.addingTimeInterval(seconds) }

    func key(_ index: Int) -> String {
        DPoPProof(thumbprint: "thumb", identifier: "jti-\(index)", issuedAt: 0, nonce: nil, algorithm: .es256).replayKey
    }

    @Test("a key is fresh once, replayed until it expires, and fresh again after")
    func lifecycle() {
        let cache = DPoPReplayCache(capacity: 10)
        #expect(cache.insert(key(1), expiresAt: at(66), now: at(0)) == .fresh)
        #expect(cache.insert(key(1), expiresAt: at(66), now: at(1)) == .replayed)
        #expect(cache.insert(key(1), expiresAt: at(70), now: at(65.9)) == .replayed)
        #expect(cache.insert(key(1), expiresAt: at(132), now: at(66)) == .fresh)
        #expect(cache.insert(key(2), expiresAt: at(132), now: at(66)) == .fresh)
        #expect(cache.count == 2)
    }

    @Test("a fractional expiry is held until the next whole second")
    func fractionalExpiry() {
        let cache = DPoPReplayCache(capacity: 10)
        #expect(cache.insert(key(1), expiresAt: at(10.5), now: at(0)) == .fresh)
        #expect(cache.insert(key(1), expiresAt: at(20), now: at(10.7)) == .replayed)
        #expect(cache.insert(key(1), expiresAt: at(20), now: at(11)) == .fresh)
    }

    @Test("the same jti from two keys is two entries")
    func keysDiffer() {
        let cache = DPoPReplayCache(capacity: 10)
        let a = DPoPProof(thumbprint: "a", identifier: "same", issuedAt: 0, nonce: nil, algorithm: .es256)
        let b = DPoPProof(thumbprint: "b", identifier: "same", issuedAt: 0, nonce: nil, algorithm: .es256)
        #expect(cache.insert(a.replayKey, expiresAt: at(60), now: at(0)) == .fresh)
        #expect(cache.insert(b.replayKey, expiresAt: at(60), now: at(0)) == .fresh)
    }

    @Test("full at capacity; a replay is still a replay; room comes back as keys expire")
    func capacity() {
        let cache = DPoPReplayCache(capacity: 3)
        #expect(cache.insert(key(1), expiresAt: at(10), now: at(0)) == .fresh)
        #expect(cache.insert(key(2), expiresAt: at(20), now: at(0)) == .fresh)
        #expect(cache.insert(key(3), expiresAt: at(20), now: at(0)) == .fresh)
        #expect(cache.insert(key(4), expiresAt: at(20), now: at(0)) == .full)
        #expect(cache.insert(key(1), expiresAt: at(20), now: at(5)) == .replayed)
        #expect(cache.insert(key(4), expiresAt: at(30), now: at(10)) == .fresh)
        #expect(cache.insert(key(5), expiresAt: at(30), now: at(10)) == .full)
        #expect(cache.insert(key(5), expiresAt: at(30), now: at(20)) == .fresh)
        #expect(cache.count == 2)
    }

    @Test("an already expired key is fresh but not recorded")
    func alreadyExpired() {
        let cache = DPoPReplayCache(capacity: 1)
        #expect(cache.insert(key(1), expiresAt: at(0), now: at(0)) == .fresh)
        #expect(cache.count == 0)
        #expect(cache.insert(key(2), expiresAt: at(5), now: at(0)) == .fresh)
    }

    @Test("a long idle gap drops every expired key at once")
    func longGap() {
        let cache = DPoPReplayCache(capacity: 1000)
        for index in 0..<500 {
            #expect(cache.insert(key(index), expiresAt: at(Double(index % 90) + 1), now: at(0)) == .fresh)
        }
        #expect(cache.count == 500)
        #expect(cache.insert(key(9999), expiresAt: at(86_500), now: at(86_400)) == .fresh)
        #expect(cache.count == 1)
        #expect(cache.insert(key(0), expiresAt: at(86_500), now: at(86_400)) == .fresh)
    }

    @Test("keys that are not hex digests still work")
    func arbitraryKeys() {
        let cache = DPoPReplayCache(capacity: 10)
        #expect(cache.insert("short", expiresAt: at(10), now: at(0)) == .fresh)
        #expect(cache.insert("short", expiresAt: at(10), now: at(0)) == .replayed)
        #expect(cache.insert("shorT", expiresAt: at(10), now: at(0)) == .fresh)
    }

    @Test("inserts from many threads record each key once")
    func concurrent() async {
        let cache = DPoPReplayCache(capacity: 10_000)
        let keys = (0..<200).map(key)
        let outcomes = await withTaskGroup(of: [DPoPReplayCache.Outcome].self) { group in
            for _ in 0..<4 {
                group.addTask { keys.map { cache.insert($0, expiresAt: self.at(60), now: self.at(0)) } }
            }
            var all: [DPoPReplayCache.Outcome] = []
            for await part in group { all += part }
            return all
        }
        #expect(outcomes.filter { $0 == .fresh }.count == 200)
        #expect(outcomes.filter { $0 == .replayed }.count == 600)
    }
}
