/// A registration that passed every check: what the store keeps.
public struct VerifiedRegistration: Sendable, Equatable {
    /// The credential id.
    public var credentialID: [UInt8]
    /// The COSE_Key bytes.
    public var publicKey: [UInt8]
    /// Its algorithm.
    public var algorithm: COSEAlgorithm
    /// The initial sign counter.
    public var signCount: UInt32
    /// Flag UV.
    public var userVerified: Bool
    /// Flag BE.
    public var backupEligible: Bool
    /// Flag BS.
    public var backedUp: Bool
    /// The AAGUID (16 bytes).
    public var aaguid: [UInt8]
    /// The attestation object's `fmt` (its statement is not trusted).
    public var attestationFormat: String

    /// Creates a result.
    public init(
        credentialID: [UInt8], publicKey: [UInt8], algorithm: COSEAlgorithm, signCount: UInt32, userVerified: Bool,
        backupEligible: Bool, backedUp: Bool, aaguid: [UInt8], attestationFormat: String
    ) {
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
    }
}
