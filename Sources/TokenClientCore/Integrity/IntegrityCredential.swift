#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What an ``AppIntegrityProvider`` obtained: the `X-App-Integrity` value and when it stops being accepted.
public struct IntegrityCredential: Sendable, Hashable {
    /// The header value: an integrity token, or `debug:<secret>`.
    public var value: String
    /// When the server stops accepting it on the session's clock (`Date.distantFuture`: never).
    public var expiresAt: Date

    /// Creates a credential.
    public init(value: String, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }
}
