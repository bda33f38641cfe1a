#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A vended token with the time it stops being usable and the time a provider fetches a replacement.
public struct ExpiringToken: Sendable, Equatable {
    /// The raw token (no `Bearer ` prefix).
    public var token: String
    /// When the token expires (for Moss: receipt plus `expiresIn`; for Stream: the JWT's `exp`).
    public var expiresAt: Date
    /// When a provider stops serving it from cache: `expiresAt` minus the provider's margin.
    public var refreshAt: Date

    /// Creates a token record.
    public init(token: String, expiresAt: Date, refreshAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
        self.refreshAt = refreshAt
    }
}

/// Printing, interpolating, `dump` and the debugger show `<redacted>` in place of the token.
extension ExpiringToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { Redacted.describe("ExpiringToken", shownFields) }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Redacted.mirror(self, shownFields) }

    private var shownFields: KeyValuePairs<String, Any> {
        ["token": Redacted(), "expiresAt": expiresAt, "refreshAt": refreshAt]
    }
}
