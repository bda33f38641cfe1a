extension RelyingPartyVerifier {
    /// Checks a registration: client data type `webauthn.create`, `challenge` equal to `expectedChallenge`, origin
    /// accepted, not cross-origin; the attestation object decodes; `rpIdHash`; UP, and UV when required; BS only
    /// with BE; attested credential data present; credential id 1–1023 bytes, equal to `rawId`; a well-formed COSE
    /// key of an allowed algorithm.
    /// - Throws: `.malformed` (400) or `.failed(reason)` (401).
    public func verifyRegistration(
        _ credential: RegistrationCredential, clientData: CollectedClientData, expectedChallenge: [UInt8]
    ) throws(WebAuthnError) -> VerifiedRegistration {
        try checkClientData(
            clientData, bytes: credential.clientDataJSON, type: "webauthn.create", expectedChallenge: expectedChallenge)
        let object = try AttestationObject(credential.attestationObject)
        let data = try AuthenticatorData(object.authenticatorData, requiresAttestedCredential: true)
        try checkFlags(data)
        guard let attested = data.attestedCredential else { throw .failed(.attestedCredential) }
        guard !attested.credentialID.isEmpty else { throw .failed(.credentialID) }
        guard attested.credentialID == credential.rawID, Self.names(credential.id, credential.rawID) else {
            throw .failed(.credentialMismatch)
        }
        let key = try COSEKey(bytes: attested.publicKeyBytes)
        return VerifiedRegistration(
            credentialID: attested.credentialID, publicKey: key.bytes, algorithm: key.algorithm,
            signCount: data.signCount, userVerified: data.userVerified, backupEligible: data.backupEligible,
            backedUp: data.backedUp, aaguid: attested.aaguid, attestationFormat: object.format)
    }
}
