#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A passkey (a WebAuthn discoverable credential, issue 36) whose registration tokenvend verified, stored in
/// `passkeys`: it belongs to one account and goes with it (`ON DELETE CASCADE`).
public struct Passkey: Sendable, Equatable {
    /// The credential id, base64url without padding (1 to 1023 bytes decoded): the primary key, unique across
    /// every account.
    public var credentialID: String
    /// The account.
    public var userID: String
    /// The credential public key as the authenticator gave it: the COSE_Key bytes (RFC 9052 §7).
    public var publicKey: [UInt8]
    /// Its COSE algorithm (−7 ES256, −8 EdDSA, −257 RS256).
    public var algorithm: Int
    /// The signature counter of the last accepted ceremony (0 for authenticators that keep none, as synced
    /// passkeys do).
    public var signCount: UInt32
    /// Flag BE at registration: the credential may be synced (a multi-device passkey). Never changes.
    public var backupEligible: Bool
    /// Flag BS at the last accepted ceremony: the credential is backed up now.
    public var backedUp: Bool
    /// The transports the client reported at registration (`internal`, `hybrid`, …), possibly none.
    public var transports: [String]
    /// The authenticator's AAGUID (16 bytes; all zero when it gives none).
    public var aaguid: [UInt8]
    /// The user's name for it (1–64 characters).
    public var name: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in, or nil.
    public var lastUsedAt: Date?

    /// Creates a passkey record.
    public init(
        credentialID: String, userID: String, publicKey: [UInt8], algorithm: Int, signCount: UInt32,
        backupEligible: Bool, backedUp: Bool, transports: [String] = [],
        aaguid: [UInt8] = Array(repeating: 0, count: 16), name: String, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.credentialID = credentialID
        self.userID = userID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.transports = transports
        self.aaguid = aaguid
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
