import Cryptography
import StrictJSON

/// The `.`-separated base64url segments of a JOSE compact serialization (JWS: three, JWE: five), located and
/// decoded but not yet trusted.
struct CompactSegments {
    /// The text of each segment, as sent (the protected header's text is the AAD of a JWE).
    let texts: [Substring]

    /// Splits `token` into exactly `count` non-empty segments.
    /// - Throws: `.malformed` for another count or an empty segment.
    init(_ token: String, count: Int) throws(IntegrityError) {
        let texts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard texts.count == count else { throw .malformed("a compact token needs \(count) segments") }
        guard texts.allSatisfy({ !$0.isEmpty }) else { throw .malformed("a compact token has an empty segment") }
        self.texts = texts
    }

    /// The bytes of segment `index` (canonical unpadded base64url).
    /// - Throws: `.malformed` for anything else.
    func bytes(_ index: Int) throws(IntegrityError) -> [UInt8] {
        guard let bytes = Base64URL.decode(String(texts[index])) else {
            throw .malformed("a compact token segment is not base64url")
        }
        return bytes
    }

    /// Segment `index` parsed as one JSON object.
    /// - Throws: `.malformed` when it is not base64url or not a JSON object.
    func object(_ index: Int) throws(IntegrityError) -> JSONObject {
        try Self.parseObject(try bytes(index))
    }

    /// `bytes` parsed as one JSON object (StrictJSON: duplicate members and deep nesting refused).
    /// - Throws: `.malformed`.
    static func parseObject(_ bytes: [UInt8]) throws(IntegrityError) -> JSONObject {
        guard let value = try? JSONValue.parse(bytes), let object = value.objectValue else {
            throw .malformed("a compact token segment is not a JSON object")
        }
        return object
    }
}
