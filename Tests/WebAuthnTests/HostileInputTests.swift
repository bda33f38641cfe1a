import Testing
import WebAuthn

/// Seeded random and mutated bytes through every parser: a clear error or a value, never a crash.
@Suite("Hostile input")
struct HostileInputTests {
    /// xorshift64*: the same bytes on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    @Test("random and bit-flipped authenticator data, COSE keys and client data never crash the parsers")
    func neverCrashes() throws {
        var generator = Generator(state: 36)
        let credential = try SoftwareCredential()
        let seeds = [
            try SoftwareCredential.authenticatorData(flags: 0x45, attested: (Array(0..<16), try credential.coseKey())),
            try credential.coseKey(),
            SoftwareCredential.clientData(type: "webauthn.get", challenge: [1, 2, 3]),
        ]
        var refused = 0
        for round in 0..<3_000 {
            var bytes = seeds[round % 3]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= UInt8.random(
                        in: 1...255, using: &generator)
                }
            }
            if (try? AuthenticatorData(bytes, requiresAttestedCredential: false)) == nil { refused += 1 }
            if (try? COSEKey(bytes: bytes)) == nil { refused += 1 }
            if (try? CollectedClientData(bytes)) == nil { refused += 1 }
        }
        #expect(refused > 3_000)
    }
}
