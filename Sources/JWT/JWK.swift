public import StrictJSON

/// A JSON Web Key (RFC 7517) of type EC, OKP or RSA, its members kept as the base64url strings they are written as.
///
/// `init(json:)` validates the structure strictly (see `validate()`); building a value by hand is allowed, and
/// `JWTKey(jwk:)` validates it again. `serialized()` writes the members in one fixed order: `kty`, `kid`, `use`,
/// `key_ops`, `alg`, `crv`, `x`, `y`, `n`, `e`, then the private ones `d`, `p`, `q`, `dp`, `dq`, `qi`. Other
/// members of the input (`x5c`, vendor extensions…) are ignored and never written; a `k` (symmetric secret) or
/// `oth` member is refused. `description` never shows private members.
///
/// ```swift
/// let jwk = try JWK(json: Array(#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKx…"}"#.utf8))
/// let key = try JWTKey(jwk: jwk, kid: "ed-1", algorithm: .edDSA)
/// ```
public struct JWK: Sendable, Hashable {
    /// Key type: `"EC"`, `"OKP"` or `"RSA"` (RFC 7518 §6.1, RFC 8037 §2).
    public var kty: String
    /// Curve: `"P-256"`, `"P-384"`, `"P-521"` for EC; `"Ed25519"`, `"Ed448"`, `"X25519"`, `"X448"` for OKP.
    public var crv: String?
    /// EC x coordinate or OKP public key, base64url.
    public var x: String?
    /// EC y coordinate, base64url.
    public var y: String?
    /// RSA modulus, base64url, without leading zero octets.
    public var n: String?
    /// RSA public exponent, base64url.
    public var e: String?
    /// Private: EC scalar, OKP seed, or RSA private exponent.
    public var d: String?
    /// Private RSA members (RFC 7518 §6.3.2).
    public var p: String?, q: String?, dp: String?, dq: String?, qi: String?
    /// Key identifier.
    public var kid: String?
    /// The algorithm the key is meant for, e.g. `"ES256"`.
    public var alg: String?
    /// Intended use: `"sig"` or `"enc"`.
    public var use: String?
    /// Permitted operations (`key_ops`), e.g. `["verify"]`.
    public var keyOps: [String]?

    /// Creates a JWK from its members; nothing is checked until `validate()` or `JWTKey(jwk:)`.
    public init(
        kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil,
        d: String? = nil, p: String? = nil, q: String? = nil, dp: String? = nil, dq: String? = nil,
        qi: String? = nil, kid: String? = nil, alg: String? = nil, use: String? = nil, keyOps: [String]? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.d = d
        self.p = p
        self.q = q
        self.dp = dp
        self.dq = dq
        self.qi = qi
        self.kid = kid
        self.alg = alg
        self.use = use
        self.keyOps = keyOps
    }

    /// Whether any private member (`d`, `p`, `q`, `dp`, `dq`, `qi`) is present.
    public var isPrivate: Bool {
        [d, p, q, dp, dq, qi].contains { $0 != nil }
    }

    /// The same key without its private members.
    public func publicOnly() -> JWK {
        var copy = self
        copy.d = nil
        copy.p = nil
        copy.q = nil
        copy.dp = nil
        copy.dq = nil
        copy.qi = nil
        return copy
    }

    /// The members in the fixed order, as a JSON object.
    public var jsonObject: JSONObject {
        var members: [JSONObject.Member] = [JSONObject.Member(name: "kty", value: .string(kty))]
        func add(_ name: String, _ value: String?) {
            if let value { members.append(JSONObject.Member(name: name, value: .string(value))) }
        }
        add("kid", kid)
        add("use", use)
        if let keyOps {
            members.append(JSONObject.Member(name: "key_ops", value: .array(keyOps.map(JSONValue.string))))
        }
        add("alg", alg)
        add("crv", crv)
        add("x", x)
        add("y", y)
        add("n", n)
        add("e", e)
        add("d", d)
        add("p", p)
        add("q", q)
        add("dp", dp)
        add("dq", dq)
        add("qi", qi)
        return JSONObject(members)
    }

    /// Compact JSON with the members in the fixed order (private members included if present; see `publicOnly()`).
    public func serialized() -> [UInt8] {
        jsonObject.serialized()
    }
}

extension JWK: CustomStringConvertible, CustomDebugStringConvertible {
    /// The public members as JSON, with `"private"` noted when private members exist; never their values.
    public var description: String {
        let text = String(decoding: publicOnly().serialized(), as: UTF8.self)
        return isPrivate ? "JWK(\(text), private members hidden)" : "JWK(\(text))"
    }

    /// Same as `description`.
    public var debugDescription: String { description }
}
