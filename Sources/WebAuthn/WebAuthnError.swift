/// Why a passkey ceremony's input is refused: a malformed input (the server answers 400 `invalid_request`), or a
/// well-formed one that fails a check (401 `invalid_credential`, one body for every reason).
///
/// Never carries input bytes, so it can be logged.
public enum WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// JSON, base64url or CBOR that does not decode, a member missing or of the wrong type, or a size cap crossed
    /// (the detail names which; it never quotes the input).
    case malformed(String)
    /// A check failed.
    case failed(PasskeyCheckFailure)

    /// `malformed: <detail>` or `failed: <reason>`.
    public var description: String {
        switch self {
        case .malformed(let detail): "malformed: \(detail)"
        case .failed(let reason): "failed: \(reason.rawValue)"
        }
    }
}
