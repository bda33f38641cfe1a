public import StrictJSON

/// The members of a JWS header to sign with, in order. `alg` and `kid` are placeholders filled from the key.
///
/// ```swift
/// let stream = JWTHeader.standard(type: "JWT")       // {"alg":"HS512","typ":"JWT","kid":"k1"}
/// let access = JWTHeader.standard(type: "at+jwt")    // {"alg":"HS512","typ":"at+jwt","kid":"k1"}
/// let custom = JWTHeader([.keyID, .algorithm, .member("cty", "x")])
/// ```
public struct JWTHeader: Sendable, Equatable {
    /// One header member.
    public enum Member: Sendable, Equatable {
        /// `"alg"`, set to the signing key's algorithm.
        case algorithm
        /// `"kid"`, set to the signing key's identifier.
        case keyID
        /// Any other member. `crit` is allowed but this library's own verifier rejects every `crit`.
        case member(String, JSONValue)
    }

    /// The members in order.
    public let members: [Member]

    /// Creates a header template.
    ///
    /// - Precondition: exactly one `.algorithm`, at most one `.keyID`, no `.member` named `alg` or `kid`, and no two
    ///   members with the same name (programmer errors).
    public init(_ members: [Member]) {
        var names: [String] = []
        for member in members {
            switch member {
            case .algorithm: names.append("alg")
            case .keyID: names.append("kid")
            case .member(let name, _):
                precondition(name != "alg" && name != "kid", "alg and kid come from the key")
                names.append(name)
            }
        }
        precondition(names.contains("alg"), "a JWS header needs alg")
        precondition(Set(names).count == names.count, "duplicate header member")
        self.members = members
    }

    /// `{"alg", "typ", "kid"}` in that order, or `{"alg", "kid"}` when `type` is `nil`.
    public static func standard(type: String? = "JWT") -> JWTHeader {
        guard let type else { return JWTHeader([.algorithm, .keyID]) }
        return JWTHeader([.algorithm, .member("typ", .string(type)), .keyID])
    }

    /// The header JSON for an HMAC `key`.
    public func object(for key: HMACKey) -> JSONObject {
        object(for: JWTKey(key))
    }

    /// The header JSON for `key`.
    public func object(for key: JWTKey) -> JSONObject {
        JSONObject(
            members.map { member in
                switch member {
                case .algorithm: JSONObject.Member(name: "alg", value: .string(key.algorithm.name))
                case .keyID: JSONObject.Member(name: "kid", value: .string(key.kid))
                case .member(let name, let value): JSONObject.Member(name: name, value: value)
                }
            }
        )
    }
}
