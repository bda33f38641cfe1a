import Cryptography
public import StrictJSON

extension JWTKeySet {
    /// Verifies a compact JWS and returns its payload.
    ///
    /// Order: size cap, three base64url segments and strict header JSON (`crit`, `kid`, exact `alg`), the signature
    /// (a MAC compared in constant time, or the key's ES256/EdDSA/RS256 check), and only then the payload JSON and
    /// its claims (`exp`, `nbf`, `iat`, `iss`, `aud`) and the header `typ`, as `options` asks. The same order and
    /// errors hold for every algorithm.
    ///
    /// - Parameters:
    ///   - token: The compact serialization.
    ///   - type: What to build from the verified claims. Default: `JWTClaims`.
    ///   - options: Clock, leeway and which claims to require. Default: `exp` and `kid` required.
    /// - Returns: The payload.
    /// - Throws: `JWTError` naming the first failed check: `.tokenTooLarge`, `.malformed`,
    ///   `.unsupportedCriticalHeader`, `.missingKeyID`, `.unknownKeyID`, `.algorithmMismatch`, `.invalidSignature`,
    ///   `.typeMismatch`, `.missingClaim`, `.invalidClaim`, `.expired`, `.notYetValid`, `.issuedInFuture`,
    ///   `.issuerMismatch`, `.audienceMismatch`, `.cryptoFailure`, or what `Payload.init(claims:)` throws.
    public func verify<Payload: JWTPayload>(
        _ token: String,
        as type: Payload.Type = JWTClaims.self,
        options: VerificationOptions = VerificationOptions()
    ) throws(JWTError) -> Payload {
        try Payload(claims: verifiedClaims(token, options: options))
    }

    /// The non-generic body of `verify`, so callers in other modules need no specialization.
    func verifiedClaims(_ token: String, options: VerificationOptions) throws(JWTError) -> JWTClaims {
        let compact = try CompactToken(token)
        let cachedHeader = headerCache.header(for: compact.bytes, range: compact.headerRange)
        let header: JSONObject
        if let cachedHeader { header = cachedHeader } else { header = try compact.header() }
        if header["crit"] != nil { throw .unsupportedCriticalHeader }
        let key = try key(forHeader: header, requireKeyID: options.requireKeyID)

        // All three segments must be canonical base64url before any cryptography; the payload JSON is parsed
        // only once the signature holds.
        let payloadBytes = try compact.decodeSegment(compact.payloadRange)
        let signature = try compact.decodeSegment(compact.signatureRange)
        guard try key.isValidSignature(signature, for: compact.bytes, range: compact.signingInputRange) else {
            throw .invalidSignature
        }

        if let expectedType = options.type { try Self.checkType(header["typ"], expected: expectedType) }
        let claims = JWTClaims(try CompactToken.parseObject(payloadBytes))
        try ClaimsValidator(options: options).validate(claims)
        if cachedHeader == nil { headerCache.insert(segment: compact.bytes[compact.headerRange], header: header) }
        return claims
    }

    /// Splits and parses a token without verifying anything but its structure. Never trust the result.
    ///
    /// - Throws: `JWTError.tokenTooLarge` or `.malformed`.
    public static func decode(_ token: String) throws(JWTError) -> (header: JSONObject, payload: JSONObject) {
        let compact = try CompactToken(token)
        return (try compact.header(), try compact.payload())
    }

    private static func checkType(_ value: JSONValue?, expected: String) throws(JWTError) {
        guard let value else { throw .missingClaim("typ") }
        guard case .string(let actual) = value else { throw .invalidClaim("typ") }
        guard actual == expected || normalizedMediaType(actual) == normalizedMediaType(expected) else {
            throw .typeMismatch
        }
    }

    private static func normalizedMediaType(_ type: String) -> String {
        let lowered = type.lowercased()
        let prefix = "application/"
        return lowered.hasPrefix(prefix) ? String(lowered.dropFirst(prefix.count)) : lowered
    }
}
