#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Stateless server nonces (RFC 9449 §8): base64url of an HMAC-SHA-256 of the time step (`stepSeconds`, 300) under
/// `secret`, so every instance with the same secret issues and accepts the same nonces without storing any. A
/// nonce is accepted during its step and the next one; the current nonce is computed once per step.
public final class DPoPNonces: Sendable {
    public let stepSeconds: Int64

    /// - Parameter secret: at least 32 bytes (`dpop.nonceSecret`).
    public init(secret: [UInt8], stepSeconds: Int64 = 300) {
        self.stepSeconds = stepSeconds
        fatalError("PendingIssue35: DPoP module")
    }

    /// The nonce to hand out at `now`.
    public func current(now: Date) -> String {
        fatalError("PendingIssue35: DPoP module")
    }

    /// Whether `nonce` is the nonce of `now`'s step or of the one before (compared in constant time).
    public func accepts(_ nonce: String, now: Date) -> Bool {
        fatalError("PendingIssue35: DPoP module")
    }
}
