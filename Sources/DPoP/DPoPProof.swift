public import JWT

/// A DPoP proof (RFC 9449 §4) whose signature, header and claims passed `DPoPProofVerifier`; what the server still
/// has to decide with state of its own: whether the nonce is current and whether the `jti` was seen before.
public struct DPoPProof: Sendable, Equatable {
    /// The RFC 7638 thumbprint (base64url SHA-256) of the header's `jwk`: what a session is bound to (`cnf.jkt`).
    public let thumbprint: String
    /// `jti`.
    public let identifier: String
    /// `iat`, Unix seconds.
    public let issuedAt: Int64
    /// `nonce`, if the proof carries one.
    public let nonce: String?
    /// The header's `alg`.
    public let algorithm: JWTAlgorithm

    public init(thumbprint: String, identifier: String, issuedAt: Int64, nonce: String?, algorithm: JWTAlgorithm) {
        self.thumbprint = thumbprint
        self.identifier = identifier
        self.issuedAt = issuedAt
        self.nonce = nonce
        self.algorithm = algorithm
    }

    /// The key the proof is remembered by against replay: lowercase hex SHA-256 of `thumbprint`, `.`, `jti` (the
    /// same `jti` from two keys is two proofs).
    public var replayKey: String {
        Self.replayKey(thumbprint: thumbprint, identifier: identifier)
    }
}
