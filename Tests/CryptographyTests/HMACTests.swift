import Cryptography
import Testing

@Suite struct HMACTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let sha256: String
        let sha384: String
        let sha512: String
        var testDescription: String { name }
    }

    // RFC 4231 §4.2–4.8 (test case 5, truncated output, is omitted).
    static let vectors: [Vector] = [
        Vector(
            name: "test case 1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
            sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            sha384: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
            sha512: "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4"
                + "be9d914eeb61f1702e696c203a126854"),
        Vector(
            name: "test case 2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
            sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
            sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fd"
                + "caeab1a34d4a6b4b636e070a38bce737"),
        Vector(
            name: "test case 3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
            sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
            sha384: "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
            sha512: "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807"
                + "b946a337bee8942674278859e13292fb"),
        Vector(
            name: "test case 6 (key longer than a block)", key: [UInt8](repeating: 0xaa, count: 131),
            data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
            sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e52"
                + "95e64f73f63f0aec8b915a985d786598"),
        Vector(
            name: "test case 7 (key and data longer than a block)", key: [UInt8](repeating: 0xaa, count: 131),
            data: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. The key needs "
                    + "to be hashed before being used by the HMAC algorithm.").utf8),
            sha256: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            sha384: "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
            sha512: "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15"
                + "134676fb6de0446065c97440fa8c6a58"),
    ]

    @Test("matches the RFC 4231 vectors for SHA-256, SHA-384 and SHA-512", arguments: vectors)
    func rfc4231(vector: Vector) throws {
        let expected: [(HMAC.Algorithm, String)] = [
            (.sha256, vector.sha256), (.sha384, vector.sha384), (.sha512, vector.sha512),
        ]
        for (algorithm, hex) in expected {
            let mac = try HMAC(algorithm: algorithm, key: vector.key, allowShortKey: true)
            #expect(Fixture.hex(try mac.authenticationCode(for: vector.data)) == hex)
            // A second call reuses a pooled context and must give the same answer.
            #expect(Fixture.hex(try mac.authenticationCode(for: vector.data)) == hex)
        }
    }

    @Test("refuses keys shorter than the hash output unless asked", arguments: HMAC.Algorithm.allCases)
    func shortKeys(algorithm: HMAC.Algorithm) throws {
        let short = [UInt8](repeating: 1, count: algorithm.outputByteCount - 1)
        #expect(throws: CryptographyError.weakKey) { try HMAC(algorithm: algorithm, key: short) }
        #expect(throws: CryptographyError.weakKey) { try HMAC(algorithm: algorithm, key: [], allowShortKey: true) }
        _ = try HMAC(algorithm: algorithm, key: short + [1])
    }

    @Test("checks a code in constant time and rejects any changed or truncated code")
    func validation() throws {
        let mac = try HMAC(algorithm: .sha256, key: Fixture.secret512)
        let message = Array("session-1:7".utf8)
        var code = try mac.authenticationCode(for: message)
        #expect(try mac.isValidAuthenticationCode(code, for: message))
        #expect(try !mac.isValidAuthenticationCode(Array(code.dropLast()), for: message))
        code[31] ^= 1
        #expect(try !mac.isValidAuthenticationCode(code, for: message))
    }

    @Test("gives the same codes when used from many tasks at once")
    func concurrentUse() async throws {
        let mac = try HMAC(algorithm: .sha512, key: Fixture.secret512)
        let expected = try mac.authenticationCode(for: Array("message".utf8))
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<200 where try mac.authenticationCode(for: Array("message".utf8)) != expected {
                        return false
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
