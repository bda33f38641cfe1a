import StrictJSON

/// A JWK Set (RFC 7517 §5): `{"keys":[…]}`.
///
/// `init(json:)` refuses a document over 64 KiB or with more than 100 keys, a missing or non-array `keys`, and
/// any key that `JWK(object:)` refuses (the error names its index). `serialized()` writes every key public-only.
///
/// ```swift
/// let set = JWKSet(keys: keys.compactMap { $0.publicJWK() })
/// response.body = set.serialized()       // {"keys":[{"kty":"EC","kid":"k1","use":"sig","alg":"ES256",…}]}
/// ```
public struct JWKSet: Sendable, Hashable {
    /// The largest JWK Set document accepted: 64 KiB.
    public static let maximumByteCount = 64 * 1024
    /// The most keys a JWK Set may hold: 100.
    public static let maximumKeyCount = 100

    /// The keys, in order.
    public var keys: [JWK]

    /// Creates a set from keys.
    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// Parses and validates a JWK Set document with the strict JSON reader; members other than `keys` are ignored.
    ///
    /// - Throws: `JWTError.invalidKey` naming the rule (and the key index) that failed.
    public init(json: [UInt8]) throws(JWTError) {
        var keys: [JWK] = []
        for (index, value) in try Self.entries(of: json).enumerated() {
            guard case .object(let member) = value else { throw .invalidKey("JWK Set key \(index) is not an object") }
            do {
                keys.append(try JWK(object: member))
            } catch {
                if case .invalidKey(let reason) = error { throw .invalidKey("JWK Set key \(index): \(reason)") }
                throw error
            }
        }
        self.keys = keys
    }

    /// The entries of a JWK Set document's `keys` array, unchecked, after the checks every reader of a set makes:
    /// at most 64 KiB, one JSON object (strict reader), a `keys` array of at most 100 entries.
    ///
    /// - Throws: `JWTError.invalidKey` naming the failed check.
    static func entries(of json: [UInt8]) throws(JWTError) -> [JSONValue] {
        guard json.count <= maximumByteCount else { throw .invalidKey("JWK Set larger than 64 KiB") }
        let object: JSONObject
        do {
            object = try JSONParser.parseObject(json)
        } catch {
            throw .invalidKey("JWK Set is not one JSON object (\(error))")
        }
        guard case .array(let values) = object["keys"] else { throw .invalidKey("JWK Set has no keys array") }
        guard values.count <= maximumKeyCount else { throw .invalidKey("JWK Set has more than 100 keys") }
        return values
    }

    /// `{"keys":[…]}`, compact, each key in the JWK member order and **public-only**: private members of any key
    /// are left out (documented here, so nothing is dropped silently).
    public func serialized() -> [UInt8] {
        let object: JSONObject = ["keys": .array(keys.map { .object($0.publicOnly().jsonObject) })]
        return object.serialized()
    }
}
