/// Shared test data for the Cryptography tests.
enum Fixture {
    static let secret512 = Array("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".utf8)

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }
}
