/// Every way the JWT module can refuse a key, a token or a claim.
///
/// Each case names the check that failed. No case carries text taken from a token, so an error can be logged
/// or returned to a client without echoing attacker-controlled input.
public enum JWTError: Error, Sendable, Equatable {
    /// Which structural rule of the compact serialization or of its JSON a token broke.
    public enum Malformation: Sendable, Equatable {
        /// Not exactly three `.`-separated segments.
        case segmentCount
        /// A segment is empty.
        case emptySegment
        /// A segment holds a character outside the base64url alphabet, padding, or non-canonical trailing bits.
        case base64URL
        /// The header or payload is not valid UTF-8 JSON (RFC 8259), or has trailing content.
        case json
        /// The header or payload is valid JSON but not an object.
        case notAnObject
        /// An object has two members with the same name.
        case duplicateMember
        /// JSON nested deeper than 64 levels.
        case nestingTooDeep
    }

    /// The compact token is longer than 16 KiB; nothing else was looked at.
    case tokenTooLarge
    /// The token is not a well-formed JWS compact serialization; the payload says which rule failed.
    case malformed(Malformation)
    /// The header's `crit` names an extension this library does not understand (RFC 7515 §4.1.11).
    case unsupportedCriticalHeader
    /// The header `alg` is missing, `none`, or differs from the algorithm fixed by the key.
    case algorithmMismatch
    /// The header has no `kid` but the options require one (or the key set cannot pick a key without it).
    case missingKeyID
    /// The header names a `kid` that is not in the key set. There is never a fallback key.
    case unknownKeyID
    /// The signature does not match.
    case invalidSignature
    /// `exp` (plus leeway) is in the past.
    case expired
    /// `nbf` (minus leeway) is in the future.
    case notYetValid
    /// `iat` (minus leeway) is in the future.
    case issuedInFuture
    /// A required claim or header member is absent; the payload is its (library-chosen) name.
    case missingClaim(String)
    /// A registered claim or header member has the wrong JSON type; the payload is its (library-chosen) name.
    case invalidClaim(String)
    /// `iss` differs from the expected issuer.
    case issuerMismatch
    /// `aud` does not contain the expected audience.
    case audienceMismatch
    /// The header `typ` differs from the expected type.
    case typeMismatch
    /// An HMAC key is shorter than the hash output (e.g. < 64 bytes for HS512), or empty.
    case weakKey
    /// Two keys in a key set share a `kid`, or a `kid` is empty.
    case invalidKeyID
    /// The signing `kid` of a key set is not one of its keys.
    case unknownSigningKeyID
    /// OpenSSL reported an internal failure (allocation, provider error).
    case cryptoFailure
    /// A key (PEM, JWK, JWK Set, raw components) was refused. The text is chosen by this library and names the
    /// rule that failed (e.g. "crv does not match kty"); it never contains key material or input text.
    case invalidKey(String)
    /// The operation is not available for this algorithm or key: an HMAC key for ES256, signing with RS256 or with
    /// a public key, a JWK whose `alg` this library does not implement.
    case unsupportedAlgorithm
    /// Configured key material cannot sign with this algorithm (`JWTKey(signingMaterial:kid:algorithm:)`); the
    /// problem says why, and the description is its one-line reason.
    case unusableSigningKey(JWTAlgorithm, SigningKeyProblem)
}

extension JWTError: CustomStringConvertible {
    /// A short English sentence naming the failed check; never contains token, key or claim values.
    public var description: String {
        switch self {
        case .tokenTooLarge: "token larger than 16 KiB"
        case .malformed(let reason): "malformed token: \(reason)"
        case .unsupportedCriticalHeader: "unsupported critical header parameter"
        case .algorithmMismatch: "algorithm not allowed for this key"
        case .missingKeyID: "missing kid"
        case .unknownKeyID: "unknown kid"
        case .invalidSignature: "invalid signature"
        case .expired: "token expired"
        case .notYetValid: "token not yet valid (nbf)"
        case .issuedInFuture: "token issued in the future (iat)"
        case .missingClaim(let name): "missing claim \(name)"
        case .invalidClaim(let name): "claim \(name) has the wrong type"
        case .issuerMismatch: "issuer mismatch"
        case .audienceMismatch: "audience mismatch"
        case .typeMismatch: "typ mismatch"
        case .weakKey: "HMAC key shorter than the hash output"
        case .invalidKeyID: "empty or duplicate kid in key set"
        case .unknownSigningKeyID: "signing kid not in key set"
        case .cryptoFailure: "OpenSSL failure"
        case .invalidKey(let reason): "invalid key: \(reason)"
        case .unsupportedAlgorithm: "algorithm not supported for this key or operation"
        case .unusableSigningKey(let algorithm, let problem): problem.reason(algorithm)
        }
    }
}

extension JWTError.Malformation: CustomStringConvertible {
    /// A few words naming the structural rule that failed.
    public var description: String {
        switch self {
        case .segmentCount: "not three segments"
        case .emptySegment: "empty segment"
        case .base64URL: "invalid base64url"
        case .json: "invalid JSON"
        case .notAnObject: "JSON is not an object"
        case .duplicateMember: "duplicate JSON member"
        case .nestingTooDeep: "JSON nested too deeply"
        }
    }
}
