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

    /// Flag AT: attested credential data follows the counter.
    static let attestedCredentialFlag: UInt8 = 0x40
    /// Flag ED: an extensions map ends the structure.
    static let extensionsFlag: UInt8 = 0x80
    /// RP id hash (32), flags (1), counter (4).
    static let headerLength = 37

    /// Parses `bytes` completely.
    /// - Throws: `.malformed` for a truncated or inconsistent structure (also a credential id length past the end),
    ///   CBOR that does not decode, bytes after the structure; `.failed(.credentialID)` for a credential id longer
    ///   than 1023 bytes; `.failed(.attestedCredential)` when `requiresAttestedCredential` and flag AT is clear.
    public init(_ bytes: [UInt8], requiresAttestedCredential: Bool) throws(WebAuthnError) {
        guard bytes.count >= Self.headerLength else {
            throw .malformed("authenticator data shorter than \(Self.headerLength) bytes")
        }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = Self.headerLength
        // Depth 4 and 64 KiB: a COSE key is one flat map; the callers cap their inputs below this.
        let decoder = CBORDecoder(limits: .init(maximumInputBytes: 64 * 1024, maximumDepth: 4))
        if flags & Self.attestedCredentialFlag != 0 {
            attestedCredential = try Self.attestedCredential(bytes, position: &position, decoder: decoder)
        } else if requiresAttestedCredential {
            throw .failed(.attestedCredential)
        }
        if flags & Self.extensionsFlag != 0 {
            let extensions: CBORValue
            do {
                (extensions, position) = try decoder.decodePrefix(bytes, from: position)
            } catch {
                throw .malformed("authenticator data extensions: \(error)")
            }
            guard case .map = extensions else { throw .malformed("authenticator data extensions are not a map") }
        }
        guard position == bytes.count else { throw .malformed("bytes after the authenticator data") }
    }

    /// Reads the attested credential data at `position` and moves past it.
    private static func attestedCredential(
        _ bytes: [UInt8], position: inout Int, decoder: CBORDecoder
    ) throws(WebAuthnError) -> AttestedCredential {
        guard bytes.count >= position + 18 else { throw .malformed("attested credential data truncated") }
        let aaguid = Array(bytes[position..<position + 16])
        let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
        position += 18
        guard bytes.count >= position + length else {
            throw .malformed("credential id length \(length) beyond the authenticator data")
        }
        guard length <= maximumCredentialIDLength else { throw .failed(.credentialID) }
        let credentialID = Array(bytes[position..<position + length])
        position += length
        let keyStart = position
        let key: CBORValue
        do {
            (key, position) = try decoder.decodePrefix(bytes, from: position)
        } catch {
            throw .malformed("credential public key: \(error)")
        }
        guard case .map(let entries) = key, !entries.isEmpty else {
            throw .malformed("credential public key is not a COSE key map")
        }
        return AttestedCredential(
            aaguid: aaguid, credentialID: credentialID, publicKeyBytes: Array(bytes[keyStart..<position]),
            publicKey: key)
    }
}
