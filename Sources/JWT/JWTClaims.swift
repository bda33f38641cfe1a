public import StrictJSON

/// A JWT claims set: a JSON object whose members keep their order, with typed accessors for the registered
/// claims (RFC 7519 §4.1).
///
/// After `JWTKeySet.verify` the registered claims are known to have the right JSON types, so the accessors
/// return `nil` only when a claim is absent.
///
/// ```swift
/// var claims: JWTClaims = ["iss": "tokenvend", "sub": "u1"]
/// claims.issuedAt = now
/// claims.expiration = now + 900
/// claims["tenantId"] = nil as JSONValue?   // removes; use `.null` to store null
/// ```
public struct JWTClaims: Sendable, Equatable, JWTPayload {
    /// All members, in order.
    public var object: JSONObject

    /// Wraps an object.
    public init(_ object: JSONObject = [:]) {
        self.object = object
    }

    /// `JWTPayload` conformance: the claims themselves.
    public init(claims: JWTClaims) {
        self = claims
    }

    /// The value of any claim; setting `nil` removes it, setting a new name appends it.
    public subscript(name: String) -> JSONValue? {
        get { object[name] }
        set { object[name] = newValue }
    }

    /// The string value of a claim, or `nil` when absent or not a string.
    public func string(_ name: String) -> String? {
        object[name]?.stringValue
    }

    /// `exp`, seconds since the epoch (fractions truncated).
    public var expiration: Int64? {
        get { object["exp"]?.integerValue }
        set { object["exp"] = newValue.map { .integer($0) } }
    }

    /// `nbf`, seconds since the epoch (fractions truncated).
    public var notBefore: Int64? {
        get { object["nbf"]?.integerValue }
        set { object["nbf"] = newValue.map { .integer($0) } }
    }

    /// `iat`, seconds since the epoch (fractions truncated).
    public var issuedAt: Int64? {
        get { object["iat"]?.integerValue }
        set { object["iat"] = newValue.map { .integer($0) } }
    }

    /// `iss`.
    public var issuer: String? {
        get { string("iss") }
        set { object["iss"] = newValue.map { .string($0) } }
    }

    /// `sub`.
    public var subject: String? {
        get { string("sub") }
        set { object["sub"] = newValue.map { .string($0) } }
    }

    /// `jti`.
    public var id: String? {
        get { string("jti") }
        set { object["jti"] = newValue.map { .string($0) } }
    }

    /// `aud` as a list: a single string becomes one element; absent is empty. Setting one element writes a string.
    public var audience: [String] {
        get {
            switch object["aud"] {
            case .string(let single): [single]
            case .array(let values): values.compactMap(\.stringValue)
            default: []
            }
        }
        set {
            switch newValue.count {
            case 0: object["aud"] = nil
            case 1: object["aud"] = .string(newValue[0])
            default: object["aud"] = .array(newValue.map { .string($0) })
            }
        }
    }
}

extension JWTClaims: ExpressibleByDictionaryLiteral {
    /// Claims in the order written. Duplicate names are a programmer error.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(JSONObject(elements.map { JSONObject.Member(name: $0.0, value: $0.1) }))
    }
}

/// A type a verified payload can be turned into, e.g. an app's access-token claims struct.
public protocol JWTPayload: Sendable {
    /// Builds the value from verified claims.
    ///
    /// - Throws: `JWTError.missingClaim` / `.invalidClaim` (or any other `JWTError`) when the claims do not fit.
    init(claims: JWTClaims) throws(JWTError)
}
