public import CBOR

/// WebAuthn authenticator data (§6.1): RP id hash, flags, a big-endian counter, and in a registration the attested
/// credential (AAGUID, credential id, COSE public key bytes); extensions (flag ED) must be one CBOR map. Shared by
/// passkeys and App Attest.
public struct AuthenticatorData: Sendable, Equatable {
    /// The attested credential data (flag AT).
    public struct AttestedCredential: Sendable, Equatable {
        /// 16 bytes.
        public var aaguid: [UInt8]
        /// The credential id (at most 1023 bytes).
        public var credentialID: [UInt8]
        /// The credential public key: the exact bytes of its COSE_Key map.
        public var publicKeyBytes: [UInt8]
        /// The same key, decoded.
        public var publicKey: CBORValue
    }

    /// SHA-256 of the RP id.
    public var rpIDHash: [UInt8]
    /// The flags byte.
    public var flags: UInt8
    /// The signature counter.
    public var signCount: UInt32
    /// Present when flag AT is set.
    public var attestedCredential: AttestedCredential?

    /// Flag UP (0x01).
    public var userPresent: Bool { flags & 0x01 != 0 }
    /// Flag UV (0x04).
    public var userVerified: Bool { flags & 0x04 != 0 }
    /// Flag BE (0x08).
    public var backupEligible: Bool { flags & 0x08 != 0 }
    /// Flag BS (0x10).
    public var backedUp: Bool { flags & 0x10 != 0 }

    /// The longest credential id accepted (WebAuthn's limit).
    public static let maximumCredentialIDLength = 1023

    /// Parses `bytes` completely.
    /// - Throws: `.malformed` for a truncated or inconsistent structure (also a credential id length past the end),
    ///   CBOR that does not decode, bytes after the structure; `.failed(.credentialID)` for a credential id longer
    ///   than 1023 bytes; `.failed(.attestedCredential)` when `requiresAttestedCredential` and flag AT is clear.
    public init(_ bytes: [UInt8], requiresAttestedCredential: Bool) throws(WebAuthnError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
