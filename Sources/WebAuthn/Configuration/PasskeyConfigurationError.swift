/// A `passkeys` value the section's reader refuses: the full key (`passkeys.origins[1]`) and why.
public struct PasskeyConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The full key, e.g. `passkeys.androidApps[0].sha256CertFingerprints[1]`.
    public var path: String
    /// Why it is refused; never quotes a secret (the section has none).
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
