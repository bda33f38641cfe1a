/// A project token issued by the Moss auth service, as it answered: the bearer token and its lifetime.
///
/// ``description`` never shows the token itself, only its length, so the value is safe to log.
public struct MossProjectToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The longest lifetime accepted from the upstream: one year, in seconds. Anything longer is treated as
    /// garbage (``MossError/badUpstreamResponse``).
    public static let maximumLifetimeSeconds = 365 * 24 * 3600

    /// The longest token accepted from the upstream, in UTF-8 bytes: 16 KiB.
    public static let maximumTokenBytes = 16 * 1024

    /// The raw bearer token (no `Bearer ` prefix).
    public var token: String
    /// Lifetime in seconds, counted from when the upstream answered.
    public var expiresIn: Int

    /// Creates a token value. No validation happens here; ``isPlausible`` tells whether the upstream's values
    /// are acceptable.
    public init(token: String, expiresIn: Int) {
        self.token = token
        self.expiresIn = expiresIn
    }

    /// True when the token is non-empty, at most ``maximumTokenBytes`` long, made only of visible ASCII (it
    /// travels in an `Authorization` header), and the lifetime is in `1...maximumLifetimeSeconds`.
    public var isPlausible: Bool {
        guard (1...Self.maximumLifetimeSeconds).contains(expiresIn) else { return false }
        let utf8 = token.utf8
        guard !utf8.isEmpty, utf8.count <= Self.maximumTokenBytes else { return false }
        return utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `MossProjectToken(<n bytes>, expiresIn: <s>)`; the token itself is redacted.
    public var description: String {
        "MossProjectToken(<\(token.utf8.count) bytes>, expiresIn: \(expiresIn))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
