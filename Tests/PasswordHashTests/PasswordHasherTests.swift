import Foundation
import Testing

@testable import PasswordHash

@Suite struct PasswordHasherTests {
    /// Low cost so the suite stays fast.
    static func cheap() throws -> PasswordHasher { try PasswordHasher(timeCost: 1, memoryKiB: 8192) }

    @Test("a hash verifies its password and rejects another")
    func roundTrip() throws {
        let hasher = try Self.cheap()
        let hash = try hasher.hash(Password("correct horse battery staple"))
        #expect(hash.hasPrefix("$argon2id$v=19$m=8192,t=1,p=1$"))
        #expect(hasher.verify(Password("correct horse battery staple"), against: hash))
        #expect(!hasher.verify(Password("correct horse battery stapl"), against: hash))
        #expect(!hasher.verify(Password(""), against: hash))
        #expect(!hasher.verify(Password("x"), against: "not a hash"))
        #expect(try hasher.hash(Password("same")) != hasher.hash(Password("same")))  // fresh salt
    }

    @Test("an empty password hashes and verifies like any other")
    func emptyPassword() throws {
        let hasher = try Self.cheap()
        let hash = try hasher.hash(Password(""))
        #expect(hasher.verify(Password(bytes: []), against: hash))
        #expect(!hasher.verify(Password(" "), against: hash))
    }

    @Test("composed and decomposed spellings hash the same after NFC normalisation")
    func nfc() throws {
        let hasher = try Self.cheap()
        let composed = "caf\u{E9}-\u{212B}"  // é precomposed, Angstrom sign (NFC: Å)
        let decomposed = "cafe\u{301}-A\u{30A}"
        let hash = try hasher.hash(Password(composed))
        #expect(hasher.verify(Password(decomposed), against: hash))
        let password = Password(decomposed)
        #expect(password.characterCount == 6)
        #expect(password.byteCount == Array("caf\u{E9}-\u{C5}".utf8).count)
        // Same bytes as Foundation's NFC.
        for sample in [composed, decomposed, "ﬁ ǅ \u{1E9B}\u{323}", "한국어", "plain"] {
            let expected = Array(sample.precomposedStringWithCanonicalMapping.utf8)
            #expect(try hasher.hash(Password(sample)).isEmpty == false)
            #expect(Password(sample).byteCount == expected.count)
            #expect(hasher.verify(Password(bytes: expected), against: try hasher.hash(Password(sample))))
        }
    }

    @Test("needsRehash is false at the same cost and true after a cost change or for another algorithm")
    func rehash() throws {
        let hasher = try Self.cheap()
        let hash = try hasher.hash(Password("pw"))
        #expect(!hasher.needsRehash(hash))
        #expect(try PasswordHasher(timeCost: 2, memoryKiB: 8192).needsRehash(hash))
        #expect(try PasswordHasher(timeCost: 1, memoryKiB: 9216).needsRehash(hash))
        #expect(hasher.needsRehash("$argon2i$v=19$m=8192,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"))
        #expect(hasher.needsRehash("garbage"))
    }

    @Test("the dummy hash has the same cost and verifies nothing")
    func dummy() throws {
        let hasher = try Self.cheap()
        #expect(hasher.dummyHash.hasPrefix("$argon2id$v=19$m=8192,t=1,p=1$"))
        #expect(!hasher.needsRehash(hasher.dummyHash))
        #expect(!hasher.verifyDummy(Password("anything")))
        #expect(!hasher.verify(Password(""), against: hasher.dummyHash))
    }

    @Test("costs outside libsodium's limits are refused", arguments: [(0, 8192), (1, 7), (1, Int.max)])
    func invalidCost(time: Int, memory: Int) {
        #expect {
            try PasswordHasher(timeCost: time, memoryKiB: memory)
        } throws: { error in
            guard case .invalidCost = error as? PasswordHashError else { return false }
            return true
        }
    }

    @Test("the default cost is t=2, 19 MiB, and one verify is measured")
    func defaultCost() throws {
        let hasher = try PasswordHasher()
        #expect(hasher.timeCost == 2 && hasher.memoryKiB == 19456)
        let hash = try hasher.hash(Password("default cost"))
        #expect(hash.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        let clock = ContinuousClock()
        var ok = false
        let cpuBefore = Self.threadCPUTime()
        let verify = clock.measure { ok = hasher.verify(Password("default cost"), against: hash) }
        let cpu = Self.threadCPUTime() - cpuBefore
        let dummy = clock.measure { _ = hasher.verifyDummy(Password("default cost")) }
        #expect(ok)
        // Wall time suffers on a shared machine; the thread's CPU time is the cost of the hash itself.
        print("TIMING argon2id verify at t=2 m=19456: \(verify) wall, \(cpu) CPU; dummy verify: \(dummy) wall")
    }

    static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
