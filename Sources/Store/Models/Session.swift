#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A login session (`sid`). Its refresh token is never stored: the token encodes `(id, counter)` and a MAC
/// the caller computes; the row keeps only the live `counter`.
public struct Session: Sendable, Equatable {
    /// The session id (`sid` claim), a lowercase UUID.
    public var id: String
    /// The owner.
    public var userID: String
    /// When the session was created (login).
    public var createdAt: Date
    /// The last rotation (or creation).
    public var lastUsedAt: Date
    /// When the live refresh token stops working (sliding, never past `expiresAt`).
    public var refreshExpiresAt: Date
    /// The absolute cap: the session ends then whatever happens.
    public var expiresAt: Date
    /// When it was revoked, or nil.
    public var revokedAt: Date?
    /// The client's `User-Agent`, as given at login.
    public var userAgent: String?
    /// The client's address, as given at login.
    public var ip: String?
    /// The counter the live refresh token carries. Starts at 0, +1 per rotation.
    public var counter: Int64
    /// When the counter last moved, or nil before the first rotation.
    public var rotatedAt: Date?
    /// The RFC 7638 thumbprint of the DPoP key the session is bound to (issue 35), or nil for an unbound session.
    /// Set when the session starts and never changed: every refresh needs a proof by that key.
    public var dpopThumbprint: String?

    /// Creates a session value.
    public init(
        id: String, userID: String, createdAt: Date, lastUsedAt: Date, refreshExpiresAt: Date, expiresAt: Date,
        revokedAt: Date?, userAgent: String?, ip: String?, counter: Int64, rotatedAt: Date?,
        dpopThumbprint: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.refreshExpiresAt = refreshExpiresAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.userAgent = userAgent
        self.ip = ip
        self.counter = counter
        self.rotatedAt = rotatedAt
        self.dpopThumbprint = dpopThumbprint
    }

    /// Whether the refresh token can still be used at `now` (not revoked, neither deadline reached).
    public func isLive(at now: Date) -> Bool {
        revokedAt == nil && now < refreshExpiresAt && now < expiresAt
    }
}
