import StrictJSON

/// Checks the registered claims of a verified payload against `VerificationOptions` (RFC 7519 §4.1).
struct ClaimsValidator {
    let options: VerificationOptions

    func validate(_ claims: JWTClaims) throws(JWTError) {
        // NumericDates may be fractional (RFC 7519 §2), so compare in seconds as Double; Int64 claims below 2^53
        // are exact.
        let now = options.currentTime
        let leeway = Double(max(0, options.leeway))
        let object = claims.object

        if let expiration = try numericDate(object["exp"], name: "exp") {
            // RFC 7519 §4.1.4: the current time must be before exp.
            guard now < expiration + leeway else { throw .expired }
        } else if options.requireExpiration {
            throw .missingClaim("exp")
        }
        if let notBefore = try numericDate(object["nbf"], name: "nbf") {
            guard now + leeway >= notBefore else { throw .notYetValid }
        }
        if let issuedAt = try numericDate(object["iat"], name: "iat") {
            guard issuedAt <= now + leeway else { throw .issuedInFuture }
        }
        try checkString(object["iss"], name: "iss", expected: options.issuer, mismatch: .issuerMismatch)
        try checkString(object["sub"], name: "sub", expected: nil, mismatch: .invalidClaim("sub"))
        try checkString(object["jti"], name: "jti", expected: nil, mismatch: .invalidClaim("jti"))
        try checkAudience(object["aud"])
    }

    private func numericDate(_ value: JSONValue?, name: String) throws(JWTError) -> Double? {
        switch value {
        case nil: nil
        case .integer(let seconds): Double(seconds)
        case .double(let seconds): seconds
        default: throw .invalidClaim(name)
        }
    }

    private func checkString(
        _ value: JSONValue?,
        name: String,
        expected: String?,
        mismatch: JWTError
    ) throws(JWTError) {
        switch value {
        case nil:
            if expected != nil { throw .missingClaim(name) }
        case .string(let actual):
            if let expected, actual != expected { throw mismatch }
        default:
            throw .invalidClaim(name)
        }
    }

    private func checkAudience(_ value: JSONValue?) throws(JWTError) {
        let audiences: [String]
        switch value {
        case nil:
            guard options.audience == nil else { throw .missingClaim("aud") }
            return
        case .string(let single): audiences = [single]
        case .array(let values):
            var strings: [String] = []
            for element in values {
                guard case .string(let string) = element else { throw .invalidClaim("aud") }
                strings.append(string)
            }
            audiences = strings
        default: throw .invalidClaim("aud")
        }
        if let expected = options.audience, !audiences.contains(expected) { throw .audienceMismatch }
    }
}
