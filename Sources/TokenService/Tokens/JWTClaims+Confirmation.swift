import JWT
import StrictJSON

extension JWTClaims {
    /// `cnf.jkt` (RFC 9449 §6.1): the thumbprint of the DPoP key a token is bound to; nil without `cnf`.
    /// - Throws: `JWTError.invalidClaim("cnf")` for a `cnf` that is not an object with a non-empty string `jkt`.
    func confirmationThumbprint() throws(JWTError) -> String? {
        switch self["cnf"] {
        case nil: return nil
        case .object(let confirmation)?:
            guard case .string(let thumbprint)? = confirmation["jkt"], !thumbprint.isEmpty else {
                throw .invalidClaim("cnf")
            }
            return thumbprint
        default: throw .invalidClaim("cnf")
        }
    }
}
