import Cryptography
import StrictJSON

/// The three segments of a JWS compact serialization (RFC 7515 §7.1), located but not yet trusted.
struct CompactToken {
    /// Compact tokens longer than this are refused before anything else is looked at: 16 KiB.
    static let maximumByteCount = 16 * 1024

    let bytes: [UInt8]
    let firstDot: Int
    let secondDot: Int

    /// Splits `token`, enforcing the size cap and exactly three non-empty segments.
    init(_ token: String) throws(JWTError) {
        guard token.utf8.count <= Self.maximumByteCount else { throw .tokenTooLarge }
        let bytes = UTF8Bytes.array(token)
        let (first, second, count) = UTF8Bytes.dots(bytes)
        guard count == 2 else { throw .malformed(.segmentCount) }
        guard first > 0, second > first + 1, second < bytes.count - 1 else { throw .malformed(.emptySegment) }
        self.bytes = bytes
        self.firstDot = first
        self.secondDot = second
    }

    var headerRange: Range<Int> { 0..<firstDot }
    var payloadRange: Range<Int> { (firstDot + 1)..<secondDot }
    var signatureRange: Range<Int> { (secondDot + 1)..<bytes.count }
    /// ASCII(BASE64URL(header) ‖ '.' ‖ BASE64URL(payload)), the bytes the MAC covers.
    var signingInputRange: Range<Int> { 0..<secondDot }

    func decodeSegment(_ range: Range<Int>) throws(JWTError) -> [UInt8] {
        guard let decoded = Base64URL.decode(bytes, range: range) else { throw .malformed(.base64URL) }
        return decoded
    }

    func header() throws(JWTError) -> JSONObject {
        try Self.parseObject(try decodeSegment(headerRange))
    }

    func payload() throws(JWTError) -> JSONObject {
        try Self.parseObject(try decodeSegment(payloadRange))
    }

    /// Parses a decoded segment as one JSON object; a JSON error is a malformed token.
    static func parseObject(_ bytes: [UInt8]) throws(JWTError) -> JSONObject {
        do {
            return try JSONParser.parseObject(bytes)
        } catch {
            throw JWTError(error)
        }
    }
}
