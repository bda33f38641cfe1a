public import Foundation
import Testing

extension IndependentJWS {
    /// The decoded header and payload of an HS256 `token` after its signature checked out with the UTF-8 bytes
    /// of `secret`, without any of the project's code (SHA-256 written out below, as SHA-512 is above).
    public static func verifyHS256(
        _ token: String, secret: String
    ) throws -> (header: [String: Any], payload: [String: Any]) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let expected = hmacSHA256(key: Array(secret.utf8), message: Array("\(parts[0]).\(parts[1])".utf8))
        #expect(Array(try decode(parts[2])) == expected, "HS256 signature does not match")
        let header = try #require(try JSONSerialization.jsonObject(with: decode(parts[0])) as? [String: Any])
        let payload = try #require(try JSONSerialization.jsonObject(with: decode(parts[1])) as? [String: Any])
        return (header, payload)
    }

    /// HMAC-SHA256 (RFC 2104) of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha256(block.map { $0 ^ 0x36 } + message)
        return sha256(block.map { $0 ^ 0x5c } + inner)
    }

    /// SHA-256 (FIPS 180-4) of `message`. Its constants are the first 32 bits of SHA-512's (both are the
    /// fractional parts of the same roots of the first primes, FIPS 180-4 §4.2 and §5.3).
    public static func sha256(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        let constants = roundConstants.prefix(64).map { UInt32(truncatingIfNeeded: $0 >> 32) }
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 64)
            for index in 0..<16 {
                for byte in 0..<4 { words[index] = words[index] << 8 | UInt32(padded[chunk + index * 4 + byte]) }
            }
            for index in 16..<64 {
                let s0 = rotr(words[index - 15], 7) ^ rotr(words[index - 15], 18) ^ (words[index - 15] >> 3)
                let s1 = rotr(words[index - 2], 17) ^ rotr(words[index - 2], 19) ^ (words[index - 2] >> 10)
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            for index in 0..<64 {
                let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ words[index]
                let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ sum0 &+ majority)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] = state[index] &+ value }
        }
        return state.flatMap { word in
            stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> $0) }
        }
    }

    private static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value >> count | value << (32 - count)
    }
}
