import Cryptography
import Testing

@Suite struct SecureRandomTests {
    @Test("hex gives 2 lowercase hex digits per byte, and two calls differ")
    func hex() throws {
        let first = try SecureRandom.hex(byteCount: 8)
        let second = try SecureRandom.hex(byteCount: 8)
        #expect(first.count == 16)
        #expect(
            first.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        #expect(first != second)
    }

    @Test("base64URL gives canonical unpadded base64url of the asked byte count", arguments: [1, 2, 3, 32, 64])
    func base64URL(byteCount: Int) throws {
        let secret = try SecureRandom.base64URL(byteCount: byteCount)
        #expect(Base64URL.decode(secret)?.count == byteCount)
        #expect(!secret.contains("="))
    }
}
