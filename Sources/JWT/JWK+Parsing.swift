import Cryptography
public import StrictJSON

extension JWK {
    /// The largest JWK accepted by `init(json:)`: 16 KiB.
    public static let maximumByteCount = 16 * 1024

    /// Parses and validates one JWK (RFC 7517 §4) with the strict JSON reader.
    ///
    /// - Parameter json: UTF-8 JSON text of one object, at most 16 KiB.
    /// - Throws: `JWTError.invalidKey` naming the rule that failed (see `validate()`); the text never contains key
    ///   material.
    public init(json: [UInt8]) throws(JWTError) {
        guard json.count <= Self.maximumByteCount else { throw .invalidKey("JWK larger than 16 KiB") }
        let object: JSONObject
        do {
            object = try JSONParser.parseObject(json)
        } catch {
            throw .invalidKey("JWK is not one JSON object (\(error))")
        }
        try self.init(object: object)
    }

    /// Reads and validates one JWK from a parsed JSON object; unknown members are ignored, except `k` (the secret
    /// of a symmetric `oct` key, a mismatched private member on an EC, OKP or RSA key) and `oth` (multi-prime RSA),
    /// which are refused.
    ///
    /// - Throws: `JWTError.invalidKey`, as `init(json:)`.
    public init(object: JSONObject) throws(JWTError) {
        try self.init(members: object)
        try validate()
    }

    /// Reads the members of one JWK with their JSON types checked, without `validate()`.
    ///
    /// - Throws: `JWTError.invalidKey` for a member of the wrong JSON type, no `kty`, a `k` or an `oth` member.
    init(members object: JSONObject) throws(JWTError) {
        func string(_ name: String) throws(JWTError) -> String? {
            switch object[name] {
            case nil: return nil
            case .string(let value): return value
            default: throw .invalidKey("JWK member \(name) is not a string")
            }
        }
        guard let kty = try string("kty") else { throw .invalidKey("JWK has no kty") }
        if object["k"] != nil, ["EC", "OKP", "RSA"].contains(kty) {
            // `k` is a symmetric secret (kty "oct", RFC 7518 §6.4.1); on these keys it is a mismatched private
            // member, never silently dropped. The message names the rule, never the value. (An "oct" key is
            // refused by `validate()` as an unknown kty.)
            throw .invalidKey("member k (a symmetric secret) is not allowed for kty \(kty)")
        }
        self.init(
            kty: kty, crv: try string("crv"), x: try string("x"), y: try string("y"), n: try string("n"),
            e: try string("e"), d: try string("d"), p: try string("p"), q: try string("q"), dp: try string("dp"),
            dq: try string("dq"), qi: try string("qi"), kid: try string("kid"), alg: try string("alg"),
            use: try string("use"))
        switch object["key_ops"] {
        case nil: break
        case .array(let values):
            var operations: [String] = []
            for value in values {
                guard case .string(let operation) = value else { throw .invalidKey("JWK key_ops is not strings") }
                operations.append(operation)
            }
            keyOps = operations
        default: throw .invalidKey("JWK key_ops is not an array")
        }
        if object["oth"] != nil { throw .invalidKey("multi-prime RSA keys (oth) are not supported") }
    }

    /// Checks the structure of the key (RFC 7517, RFC 7518 §6, RFC 8037 §2):
    ///
    /// - `kty` is `EC`, `OKP` or `RSA`; `crv` is a curve of that type; members of another key type are absent;
    /// - every key member is canonical unpadded base64url of the right length (P-256 `x`/`y`/`d` 32 bytes, P-384
    ///   48, P-521 66; Ed25519 `x`/`d` 32, Ed448 57, X25519 32, X448 56; RSA `n` and `e` without leading zero);
    /// - `alg`, when present, is a registered algorithm that fits `kty` and `crv`;
    /// - `use` is `sig` or `enc`, and `sig` when `alg` is a signature algorithm;
    /// - `key_ops` holds distinct registered operations, including `sign` or `verify` when `alg` is a signature
    ///   algorithm; `kid`, when present, is not empty.
    ///
    /// - Throws: `JWTError.invalidKey` naming the rule that failed.
    public func validate() throws(JWTError) {
        switch kty {
        case "EC":
            guard let crv, let length = Self.ecCoordinateLengths[crv] else {
                throw .invalidKey("crv does not match kty")
            }
            try Self.require(x, "x", length: length)
            try Self.require(y, "y", length: length)
            try Self.optional(d, "d", length: length)
            try Self.absent([n, e, p, q, dp, dq, qi], kty)
        case "OKP":
            guard let crv, let length = Self.okpKeyLengths[crv] else { throw .invalidKey("crv does not match kty") }
            try Self.require(x, "x", length: length)
            try Self.optional(d, "d", length: length)
            try Self.absent([y, n, e, p, q, dp, dq, qi], kty)
        case "RSA":
            guard crv == nil else { throw .invalidKey("crv does not match kty") }
            try Self.absent([x, y], kty)
            try Self.requireInteger(n, "n")
            try Self.requireInteger(e, "e")
            for (value, name) in [(d, "d"), (p, "p"), (q, "q"), (dp, "dp"), (dq, "dq"), (qi, "qi")] {
                if let value { try Self.requireInteger(value, name) }
            }
            if d == nil, isPrivate { throw .invalidKey("RSA private members without d") }
        default:
            throw .invalidKey("unknown kty")
        }
        try validateUsage()
        if let kid, kid.isEmpty { throw .invalidKey("empty kid") }
    }

    /// `alg`, `use` and `key_ops` against each other and against the key type.
    private func validateUsage() throws(JWTError) {
        var isSignatureAlgorithm = false
        if let alg {
            guard let usage = Self.algorithms[alg] else { throw .invalidKey("unknown alg") }
            guard usage.fits(kty: kty, crv: crv) else { throw .invalidKey("alg does not match kty or crv") }
            isSignatureAlgorithm = usage.isSignature
            if let use, use != (usage.isSignature ? "sig" : "enc") {
                throw .invalidKey("use does not match alg")
            }
        }
        if let use, use != "sig", use != "enc" { throw .invalidKey("use is neither sig nor enc") }
        if let keyOps {
            guard Set(keyOps).count == keyOps.count, keyOps.allSatisfy(Self.operations.contains) else {
                throw .invalidKey("key_ops has unknown or repeated operations")
            }
            if isSignatureAlgorithm || use == "sig", !keyOps.contains("verify"), !keyOps.contains("sign") {
                throw .invalidKey("key_ops excludes sign and verify")
            }
        }
    }
}

extension JWK {
    /// The base64url-decoded value of a member that `validate()` accepted.
    func bytes(_ value: String?) throws(JWTError) -> [UInt8] {
        guard let value, let bytes = Base64URL.decode(value) else { throw .invalidKey("missing or invalid member") }
        return bytes
    }

    static let ecCoordinateLengths = ["P-256": 32, "P-384": 48, "P-521": 66]
    static let okpKeyLengths = ["Ed25519": 32, "Ed448": 57, "X25519": 32, "X448": 56]
    static let operations: Set<String> = [
        "sign", "verify", "encrypt", "decrypt", "wrapKey", "unwrapKey", "deriveKey", "deriveBits",
    ]

    /// Which keys an `alg` fits (RFC 7518 §3.1 and §4.1, RFC 8037 §3).
    struct Usage {
        let kty: String
        let curves: Set<String>?
        let isSignature: Bool

        func fits(kty: String, crv: String?) -> Bool {
            guard kty == self.kty else { return false }
            guard let curves else { return true }
            return crv.map(curves.contains) ?? false
        }
    }

    static let algorithms: [String: Usage] = {
        var table: [String: Usage] = [
            "ES256": Usage(kty: "EC", curves: ["P-256"], isSignature: true),
            "ES384": Usage(kty: "EC", curves: ["P-384"], isSignature: true),
            "ES512": Usage(kty: "EC", curves: ["P-521"], isSignature: true),
            "EdDSA": Usage(kty: "OKP", curves: ["Ed25519", "Ed448"], isSignature: true),
        ]
        for name in ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"] {
            table[name] = Usage(kty: "RSA", curves: nil, isSignature: true)
        }
        for name in ["RSA1_5", "RSA-OAEP", "RSA-OAEP-256"] {
            table[name] = Usage(kty: "RSA", curves: nil, isSignature: false)
        }
        for name in ["ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW"] {
            table[name] = Usage(kty: "EC", curves: ["P-256", "P-384", "P-521"], isSignature: false)
        }
        return table
    }()

    private static func require(_ value: String?, _ name: String, length: Int) throws(JWTError) {
        guard let value else { throw .invalidKey("JWK has no \(name)") }
        guard let bytes = Base64URL.decode(value) else { throw .invalidKey("\(name) is not canonical base64url") }
        guard bytes.count == length else { throw .invalidKey("\(name) has the wrong length") }
    }

    private static func optional(_ value: String?, _ name: String, length: Int) throws(JWTError) {
        if value != nil { try require(value, name, length: length) }
    }

    private static func requireInteger(_ value: String?, _ name: String) throws(JWTError) {
        guard let value else { throw .invalidKey("JWK has no \(name)") }
        guard let bytes = Base64URL.decode(value) else { throw .invalidKey("\(name) is not canonical base64url") }
        // RFC 7518 §6.3.1: the minimum number of octets, so no leading zero.
        guard let first = bytes.first, first != 0 else { throw .invalidKey("\(name) is empty or has a leading zero") }
    }

    private static func absent(_ values: [String?], _ kty: String) throws(JWTError) {
        guard values.allSatisfy({ $0 == nil }) else { throw .invalidKey("member not allowed for kty \(kty)") }
    }
}
