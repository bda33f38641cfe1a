import CBOR

/// The CBOR attestation object of a registration (§6.5): `{"fmt": text, "attStmt": map, "authData": bytes}`. The
/// statement is read for its shape only: tokenvend accepts every format as `none` and trusts none.
struct AttestationObject {
    /// `fmt`.
    var format: String
    /// `authData`.
    var authenticatorData: [UInt8]

    /// Decodes `bytes`.
    /// - Throws: `.malformed` for CBOR that does not decode or a top level that is not that map.
    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do {
            value = try CBORDecoder(
                limits: .init(maximumInputBytes: RegistrationCredential.maximumAttestationObjectBytes)
            )
            .decode(bytes)
        } catch {
            throw .malformed("attestationObject: \(error)")
        }
        guard case .map = value, let format = value["fmt"]?.textValue, let statement = value["attStmt"],
            case .map = statement, let authenticatorData = value["authData"]?.bytesValue
        else { throw .malformed("attestationObject is not {fmt, attStmt, authData}") }
        self.format = format
        self.authenticatorData = authenticatorData
    }
}
