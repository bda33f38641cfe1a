extension TokenServiceConfiguration.SigningKey {
    /// The JWS algorithms an access-token key may have (`alg`). RSA is verified for identity providers but never
    /// used to sign here.
    public enum Algorithm: String, Sendable, Equatable, CaseIterable {
        /// HMAC with SHA-512 over the UTF-8 bytes of ``TokenServiceConfiguration/SigningKey/secret``; the default.
        case hs512 = "HS512"
        /// ECDSA on P-256 with SHA-256 (RFC 7518 §3.4).
        case es256 = "ES256"
        /// Ed25519 (RFC 8037).
        case edDSA = "EdDSA"

        /// Whether the key is a shared secret (nothing to publish).
        public var isSymmetric: Bool { self == .hs512 }
    }

    /// Where a key is in its rotation (docs/OPERATIONS.md "Rotating access-token keys").
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Signs new tokens and verifies; exactly one key is current.
        case current
        /// Published in the JWKS so verifiers cache it before it signs, but not accepted yet.
        case standby
        /// Verifies the tokens it signed while current; no longer signs.
        case previous
        /// Neither published nor accepted; kept in the file so it can be moved back.
        case revoked

        /// Whether a token signed by a key in this state is accepted.
        public var verifies: Bool { self == .current || self == .previous }
        /// Whether the public key is in `/.well-known/jwks.json` (asymmetric keys only).
        public var isPublished: Bool { self != .revoked }
    }
}
