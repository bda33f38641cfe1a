import Cryptography
public import JWT
public import StrictJSON

/// Compact JWS tokens made by hand, signed by test keys (RS256 with `TestRSAKey`, ES256 with a `JWTKey`), or with
/// any header and signature an attacker might send.
public enum TestIDToken {
    /// A token with `header` and `claims`, signed by `sign` over the signing input.
    public static func make(
        header: JSONObject, claims: JSONObject, sign: ([UInt8]) throws -> [UInt8]
    ) rethrows -> String {
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        let signature = try sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// An RS256 token: header `{"alg":"RS256","kid":…,"typ":"JWT"}` unless `header` is given.
    public static func rs256(_ claims: JSONObject, key: TestRSAKey, header: JSONObject? = nil) throws -> String {
        let header = header ?? ["alg": "RS256", "kid": .string(key.kid), "typ": "JWT"]
        return try make(header: header, claims: claims) { input in try key.sign(input) }
    }

    /// An ES256 token signed by `key` (a private ES256 `JWTKey`): header `{"alg":"ES256","kid":…}`.
    public static func es256(_ claims: JSONObject, key: JWTKey) throws -> String {
        try JWTSigner(key: key, header: .standard(type: nil)).sign(JWTClaims(claims))
    }

    /// A JWK Set document holding `keys` (JSON objects, usable or not).
    public static func jwks(_ keys: [JSONObject]) -> [UInt8] {
        let set: JSONObject = ["keys": .array(keys.map { .object($0) })]
        return set.serialized()
    }
}

extension TestIDToken {
    /// The order n of the P-256 group, big-endian.
    static let p256Order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]

    /// The same ES256 token with its signature's `s` replaced by `n − s`: the other valid ECDSA signature of the
    /// same input (ECDSA malleability), so a different token text signed by the same key.
    public static func highSTwin(_ token: String) throws -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let signature = Base64URL.decode(String(parts[2])), signature.count == 64 else {
            throw TestKeyError.openSSL("not an ES256 compact token")
        }
        let s = Array(signature[32...])
        var twin = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var digit = Int(p256Order[index]) - Int(s[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 256 }
            twin[index] = UInt8(digit)
        }
        return "\(parts[0]).\(parts[1])." + Base64URL.encode(Array(signature[..<32]) + twin)
    }
}
