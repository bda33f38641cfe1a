/// A failed app-integrity verification: input that does not parse, or a check that fails.
///
/// At `/integrity/*`, ``malformed(_:)`` answers `400 invalid_request` and ``failed(_:detail:)`` answers
/// `401 integrity_invalid`; in `X-App-Integrity` or `X-Firebase-AppCheck` both answer `401 integrity_invalid`
/// (reason `malformed` for the first). `detail` is for the log only, never the wire; it never contains a token.
public enum IntegrityError: Error, Sendable, Equatable {
    /// Base64, CBOR, JWS/JWE structure or JSON that does not parse, or an input over its size cap.
    case malformed(String)
    /// A check failed, for `reason` (the metric label) with `detail` (the log).
    case failed(IntegrityFailureReason, detail: String)

    /// The metric label: ``IntegrityFailureReason/malformed`` for ``malformed(_:)``.
    public var reason: IntegrityFailureReason {
        switch self {
        case .malformed: .malformed
        case .failed(let reason, _): reason
        }
    }

    /// The log's text.
    public var detail: String {
        switch self {
        case .malformed(let detail), .failed(_, let detail): detail
        }
    }
}

/// A configuration value of the `integrity` section that cannot be used; `path` is the full key
/// (`integrity.android.decryptionKeyFile`).
public struct IntegrityConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The full key, such as `integrity.apple.rootCertificateFile`.
    public var path: String
    /// Why, for the operator.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
