import Cryptography
import StrictJSON

extension JWTError {
    /// A JSON error in a token's header or payload: the token is malformed.
    init(_ error: StrictJSONError) {
        switch error {
        case .invalid: self = .malformed(.json)
        case .notAnObject: self = .malformed(.notAnObject)
        case .duplicateMember: self = .malformed(.duplicateMember)
        case .nestingTooDeep: self = .malformed(.nestingTooDeep)
        }
    }

    /// A failure of the HMAC, the random generator or an asymmetric key.
    init(_ error: CryptographyError) {
        switch error {
        case .weakKey: self = .weakKey
        case .cryptoFailure, .authenticationFailed, .invalidCertificate, .certificateRejected: self = .cryptoFailure
        case .invalidKey(.notPrivate), .invalidKey(.unsupportedOperation): self = .unsupportedAlgorithm
        case .invalidKey(let problem): self = .invalidKey(problem.description)
        }
    }
}
