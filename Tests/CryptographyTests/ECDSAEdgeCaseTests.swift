import Cryptography
import Testing

/// Edge cases of ES256 in the style of Wycheproof: signature encodings, scalar ranges, high S, invalid points.
@Suite struct ECDSAEdgeCaseTests {
    /// The order n of P-256, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]
    /// The field prime p of P-256, big-endian.
    static let prime: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]
    static let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1MSJ9".utf8)

    /// `a − b` for 32-byte big-endian numbers with a ≥ b.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            var value = Int(a[index]) - Int(b[index]) - borrow
            borrow = value < 0 ? 1 : 0
            if value < 0 { value += 256 }
            result[index] = UInt8(value)
        }
        return result
    }

    static func signed() throws -> (key: AsymmetricKey, r: [UInt8], s: [UInt8]) {
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        let signature = try key.signature(for: message)
        return (key, Array(signature[0..<32]), Array(signature[32...]))
    }

    @Test("a signature of any length but 64 is invalid, including the DER form of a valid one")
    func lengths() throws {
        let (key, r, s) = try Self.signed()
        #expect(try key.isValidSignature(r + s, for: Self.message))
        for count in [0, 1, 32, 63, 65, 66, 72, 128] {
            let signature = Array((r + s + r + s + r + s).prefix(count))
            #expect(try !key.isValidSignature(signature, for: Self.message), "length \(count)")
        }
        #expect(try !key.isValidSignature([0] + r + s, for: Self.message))
        #expect(try !key.isValidSignature(r + s + [0], for: Self.message))
        // A DER ECDSA-Sig-Value of the same R and S (r and s made positive by a leading zero byte).
        let derR = [0x02, 0x21, 0x00] + r
        let derS = [0x02, 0x21, 0x00] + s
        let der: [UInt8] = [0x30, UInt8(derR.count + derS.count)] + derR + derS
        #expect(try !key.isValidSignature(der, for: Self.message))
    }

    @Test("R or S equal to 0, to n, or above n is invalid")
    func ranges() throws {
        let (key, r, s) = try Self.signed()
        let zero = [UInt8](repeating: 0, count: 32)
        let one = zero.dropLast() + [1]
        let nPlusOne = Array(Self.order.dropLast()) + [Self.order[31] + 1]
        let allOnes = [UInt8](repeating: 0xFF, count: 32)
        for bad in [zero, Self.order, nPlusOne, allOnes] {
            #expect(try !key.isValidSignature(bad + s, for: Self.message))
            #expect(try !key.isValidSignature(r + bad, for: Self.message))
        }
        #expect(try !key.isValidSignature(zero + zero, for: Self.message))
        #expect(try !key.isValidSignature(Array(one) + Array(one), for: Self.message))
        // R + n and S + n do not fit 32 bytes; the low 256 bits of R + n are another number: invalid too.
        #expect(try !key.isValidSignature(Self.subtract(r, Self.subtract(allOnes, Self.order)) + s, for: Self.message))
    }

    /// ECDSA accepts (R, n − S) whenever it accepts (R, S). FIPS 186-4 and RFC 7518 §3.4 do not require the low-S
    /// form, Wycheproof lists high-S signatures as valid, and OpenSSL itself signs with either, so a verifier that
    /// refused high S would refuse a genuine half of tokenvend's own tokens. Malleability is harmless here: the
    /// signed claims are the same, and nothing keys on the signature bytes as an identity.
    @Test("the high-S twin (R, n − S) of a valid signature verifies, as ECDSA defines")
    func highS() throws {
        let (key, r, s) = try Self.signed()
        let twin = Self.subtract(Self.order, s)
        #expect(try key.isValidSignature(r + twin, for: Self.message))
        #expect(try !key.isValidSignature(r + twin, for: Self.message + [0x2E]))
    }

    @Test("a public point not on the curve, (0, 0), or with a coordinate ≥ p is refused when loaded")
    func invalidPoints() throws {
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        guard case .p256(let x, let y) = try key.publicComponents() else {
            Issue.record("not a P-256 key")
            return
        }
        var offCurve = y
        offCurve[31] ^= 0x01
        let zero = [UInt8](repeating: 0, count: 32)
        for (badX, badY) in [(x, offCurve), (zero, zero), (Self.prime, y), (x, Self.prime), (zero, y)] {
            #expect(throws: CryptographyError.invalidKey(.invalidPublicKey)) {
                try AsymmetricKey(p256X: badX, y: badY)
            }
        }
        #expect(throws: CryptographyError.invalidKey(.wrongComponentLength)) {
            try AsymmetricKey(p256X: Array(x.dropFirst()), y: y)
        }
        // A private scalar with someone else's point.
        let other = try AsymmetricKey.generate(.ecdsaP256SHA256)
        #expect(throws: CryptographyError.invalidKey(.mismatchedPublicKey)) {
            try AsymmetricKey(p256X: x, y: y, d: other.privateScalar())
        }
        // d = 0 and d = n are not private keys.
        for badD in [zero, Self.order] {
            #expect(throws: CryptographyError.self) { try AsymmetricKey(p256X: x, y: y, d: badD) }
        }
    }

    @Test("SPKI with the point at infinity, a truncated point or trailing bytes is refused")
    func invalidEncodings() throws {
        let prefix: [UInt8] = [
            0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D,
            0x03, 0x01, 0x07,
        ]
        // SEQUENCE { AlgorithmIdentifier, BIT STRING { 0 unused bits, point } }
        func spki(_ point: [UInt8]) -> [UInt8] {
            let bitString: [UInt8] = [0x03, UInt8(point.count + 1), 0x00] + point
            return [0x30, UInt8(prefix.count + bitString.count)] + prefix + bitString
        }
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        let good = try key.subjectPublicKeyInfo()
        #expect(try AsymmetricKey(subjectPublicKeyInfo: good, algorithm: .ecdsaP256SHA256).isPrivate == false)
        #expect(good == spki(Array(good.suffix(65))))
        for point in [[0x00], Array(good.suffix(65).dropLast()), [0x04] + [UInt8](repeating: 0, count: 64)] {
            #expect(throws: CryptographyError.invalidKey(.invalidPublicKey)) {
                try AsymmetricKey(subjectPublicKeyInfo: spki(point), algorithm: .ecdsaP256SHA256)
            }
        }
        #expect(throws: CryptographyError.invalidKey(.invalidPublicKey)) {
            try AsymmetricKey(subjectPublicKeyInfo: good + [0], algorithm: .ecdsaP256SHA256)
        }
    }

    @Test("signatures are 64 bytes with R and S in range, and concurrent use from many threads stays correct")
    func concurrentUse() async throws {
        let key = try AsymmetricKey.generate(.ecdsaP256SHA256)
        let verifier = try key.publicKey
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        let message = Array("w\(worker) r\(round)".utf8)
                        let signature = try key.signature(for: message)
                        #expect(signature.count == 64)
                        #expect(try verifier.isValidSignature(signature, for: message))
                        #expect(try !verifier.isValidSignature(signature, for: message + [1]))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
