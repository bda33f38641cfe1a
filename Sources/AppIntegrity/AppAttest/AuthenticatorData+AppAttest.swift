import WebAuthn

extension AuthenticatorData {
    /// WebAuthn's authenticator data as App Attest reads it: every refusal is `.malformed`, as before the parser
    /// moved to WebAuthn (a credential id over 1023 bytes and an attestation without attested credential data
    /// included).
    init(appAttest bytes: [UInt8], requiresAttestedCredential: Bool) throws(IntegrityError) {
        do {
            try self.init(bytes, requiresAttestedCredential: requiresAttestedCredential)
        } catch {
            switch error {
            case .malformed(let detail):
                throw .malformed(detail)
            case .failed(.credentialID):
                throw .malformed("credential id longer than \(Self.maximumCredentialIDLength) bytes")
            case .failed(.attestedCredential):
                throw .malformed("authenticator data without attested credential data")
            case .failed(let reason):
                throw .malformed("authenticator data: \(reason.rawValue)")
            }
        }
    }
}
