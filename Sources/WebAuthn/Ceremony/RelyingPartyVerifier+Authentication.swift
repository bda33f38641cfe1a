import Cryptography

extension RelyingPartyVerifier {
    /// Checks an assertion by a stored credential: client data type `webauthn.get`, challenge, origin, not
    /// cross-origin; `rpIdHash`; UP, and UV when required; BS only with BE (and BE equal to
    /// `storedBackupEligible`, when given); `userHandle` equal to `expectedUserHandle`; the signature over
    /// `authenticatorData ‖ SHA-256(clientDataJSON)` by `publicKey`; the counter rule against `storedSignCount`
    /// (when either is non-zero the new one must be greater: else `.cloneSuspected`).
    ///
    /// `id` must name `rawId` (else `.credentialMismatch`); the caller found the credential by `rawId`.
    /// - Throws: `.malformed` (400) or `.failed(reason)` (401).
    public func verifyAuthentication(
        _ credential: AuthenticationCredential, clientData: CollectedClientData, expectedChallenge: [UInt8],
        publicKey: COSEKey, storedSignCount: UInt32, expectedUserHandle: [UInt8], storedBackupEligible: Bool? = nil
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        guard Self.names(credential.id, credential.rawID) else { throw .failed(.credentialMismatch) }
        try checkClientData(
            clientData, bytes: credential.clientDataJSON, type: "webauthn.get", expectedChallenge: expectedChallenge)
        let data = try AuthenticatorData(credential.authenticatorData, requiresAttestedCredential: false)
        try checkFlags(data)
        if let storedBackupEligible, storedBackupEligible != data.backupEligible { throw .failed(.backupState) }
        guard let userHandle = credential.userHandle, !expectedUserHandle.isEmpty,
            ConstantTime.equals(userHandle, expectedUserHandle)
        else { throw .failed(.userHandle) }
        guard let clientDataHash = try? SHA256.hash(credential.clientDataJSON),
            publicKey.isValidSignature(credential.signature, for: credential.authenticatorData + clientDataHash)
        else { throw .failed(.signature) }
        if storedSignCount != 0 || data.signCount != 0 {
            guard data.signCount > storedSignCount else { throw .failed(.cloneSuspected) }
        }
        return VerifiedAuthentication(
            signCount: data.signCount, userVerified: data.userVerified, backedUp: data.backedUp)
    }
}
