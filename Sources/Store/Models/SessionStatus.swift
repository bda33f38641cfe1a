#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// What the per-request liveness check needs about a session.
public struct SessionStatus: Sendable, Equatable {
    /// The owner.
    public var userID: String
    /// When it was revoked, or nil.
    public var revokedAt: Date?
    /// The absolute cap.
    public var expiresAt: Date
    /// When the live refresh token stops working.
    public var refreshExpiresAt: Date
    /// The thumbprint of the DPoP key the session is bound to, or nil (`Session.dpopThumbprint`).
    public var dpopThumbprint: String?

    /// Creates a status value.
    public init(
        userID: String, revokedAt: Date?, expiresAt: Date, refreshExpiresAt: Date, dpopThumbprint: String? = nil
    ) {
        self.userID = userID
        self.revokedAt = revokedAt
        self.expiresAt = expiresAt
        self.refreshExpiresAt = refreshExpiresAt
        self.dpopThumbprint = dpopThumbprint
    }

    /// Whether access tokens of this session are still honoured at `now` (not revoked, cap not reached).
    public func isLive(at now: Date) -> Bool {
        revokedAt == nil && now < expiresAt
    }
}
