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
