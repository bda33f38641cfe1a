import CBOR

/// The CBOR attestation object (WebAuthn §6.5): `{"fmt": text, "attStmt": map, "authData": bytes}`, and from
/// App Attest's statement its `x5c` (byte strings, leaf first) and whether it has a `receipt`.
struct AttestationObject {
    /// `fmt`.
    var format: String
    /// `authData`.
    var authenticatorData: [UInt8]
    /// `attStmt.x5c`: 1 to 5 byte strings; nil when absent or not that shape.
    var certificates: [[UInt8]]?
    /// Whether `attStmt.receipt` is a byte string.
    var hasReceipt: Bool

    /// Decodes `bytes`.
    /// - Throws: `.malformed` for CBOR that does not decode or a top level that is not that map.
    init(_ bytes: [UInt8]) throws(IntegrityError) {
        let value: CBORValue
        do {
            value = try CBORDecoder(limits: .init(maximumInputBytes: AppAttestVerifier.maximumAttestationBytes))
                .decode(bytes)
        } catch {
            throw .malformed("attestation: \(error)")
        }
        guard case .map = value, let format = value["fmt"]?.textValue,
            let statement = value["attStmt"], case .map = statement,
            let authenticatorData = value["authData"]?.bytesValue
        else { throw .malformed("attestation is not {fmt, attStmt, authData}") }
        self.format = format
        self.authenticatorData = authenticatorData
        if let elements = statement["x5c"]?.arrayValue, (1...5).contains(elements.count) {
            let certificates = elements.compactMap(\.bytesValue)
            self.certificates = certificates.count == elements.count ? certificates : nil
        } else {
            certificates = nil
        }
        hasReceipt = statement["receipt"]?.bytesValue != nil
    }
}
