import CBOR

/// WebAuthn authenticator data (W3C WebAuthn §6.1) as App Attest uses it: RP id hash, flags, a big-endian
/// counter and, in an attestation, the attested credential (AAGUID, credential id, COSE public key).
struct AuthenticatorData: Sendable, Equatable {
    /// The attested credential data (flag AT, 0x40).
    struct AttestedCredential: Sendable, Equatable {
        /// 16 bytes: App Attest's `appattest\0\0\0\0\0\0\0` or `appattestdevelop`.
        var aaguid: [UInt8]
        /// The credential id (App Attest: the key id's 32 bytes).
        var credentialID: [UInt8]
        /// The credential public key, a COSE_Key map (RFC 9052 §7).
        var publicKey: CBORValue
    }

    /// SHA-256 of the RP id (App Attest: of `TEAMID.bundle.id`).
    var rpIDHash: [UInt8]
    /// The flags byte.
    var flags: UInt8
    /// The signature counter.
    var counter: UInt32
    /// Present when flag AT is set.
    var attestedCredential: AttestedCredential?

    /// The longest credential id accepted (WebAuthn's limit).
    static let maximumCredentialIDLength = 1023

    /// Parses `bytes` completely (extensions, flag ED, must be one CBOR map; nothing may follow).
    /// - Throws: `.malformed` for a truncated or inconsistent structure, or an attestation without flag AT when
    ///   `requiresAttestedCredential`.
    init(_ bytes: [UInt8], requiresAttestedCredential: Bool) throws(IntegrityError) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        let decoder = CBORDecoder(limits: .init(maximumInputBytes: 16 * 1024, maximumDepth: 4))
        if flags & 0x40 != 0 {
            guard bytes.count >= position + 18 else { throw .malformed("attested credential data truncated") }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length <= Self.maximumCredentialIDLength, bytes.count >= position + length else {
                throw .malformed("credential id length \(length) beyond the authenticator data")
            }
            let credentialID = Array(bytes[position..<position + length])
            position += length
            let key: CBORValue
            do {
                (key, position) = try decoder.decodePrefix(bytes, from: position)
            } catch {
                throw .malformed("credential public key: \(error)")
            }
            guard case .map(let entries) = key, !entries.isEmpty else {
                throw .malformed("credential public key is not a COSE key map")
            }
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key)
        } else if requiresAttestedCredential {
            throw .malformed("authenticator data without attested credential data")
        }
        if flags & 0x80 != 0 {
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
}
