/// The relying party's checks of WebAuthn Level 3 §7.1 (registration) and §7.2 (authentication), pure: the
/// caller looks up and consumes challenges and credentials, and keeps the results.
///
/// Any attestation format is accepted and treated as `none`: its statement is never verified or trusted.
public struct RelyingPartyVerifier: Sendable {
    /// The configuration the checks use (RP id, accepted origins, user verification).
    public let configuration: PasskeyConfiguration

    /// A verifier for `configuration`.
    /// - Throws: ``PasskeyConfigurationError`` (`passkeys.rpId`) when passkeys are off.
    public init(configuration: PasskeyConfiguration) throws(PasskeyConfigurationError) {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// Checks a registration: client data type `webauthn.create`, `challenge` equal to `expectedChallenge`, origin
    /// accepted, not cross-origin; the attestation object decodes; `rpIdHash`; UP, and UV when required; BS only
    /// with BE; attested credential data present; credential id 1–1023 bytes, equal to `rawId`; a well-formed COSE
    /// key of an allowed algorithm.
    /// - Throws: `.malformed` (400) or `.failed(reason)` (401).
    public func verifyRegistration(
        _ credential: RegistrationCredential, clientData: CollectedClientData, expectedChallenge: [UInt8]
    ) throws(WebAuthnError) -> VerifiedRegistration {
        fatalError("issue 36: pending on branch i36-webauthn")
    }

    /// Checks an assertion by a stored credential: client data type `webauthn.get`, challenge, origin, not
    /// cross-origin; `rpIdHash`; UP, and UV when required; BS only with BE; `userHandle` equal to
    /// `expectedUserHandle`; the signature over `authenticatorData ‖ SHA-256(clientDataJSON)` by `publicKey`; the
    /// counter rule against `storedSignCount` (when either is non-zero the new one must be greater: else
    /// `.cloneSuspected`).
    /// - Throws: `.malformed` (400) or `.failed(reason)` (401).
    public func verifyAuthentication(
        _ credential: AuthenticationCredential, clientData: CollectedClientData, expectedChallenge: [UInt8],
        publicKey: COSEKey, storedSignCount: UInt32, expectedUserHandle: [UInt8]
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        fatalError("issue 36: pending on branch i36-webauthn")
    }
}
