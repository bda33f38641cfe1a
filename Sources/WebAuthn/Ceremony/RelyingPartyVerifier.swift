import Cryptography

/// The relying party's checks of WebAuthn Level 3 §7.1 (registration) and §7.2 (authentication), pure: the
/// caller looks up and consumes challenges and credentials, and keeps the results.
///
/// Any attestation format is accepted and treated as `none`: its statement is never verified or trusted.
///
/// ```swift
/// let verifier = try RelyingPartyVerifier(configuration: configuration)
/// let clientData = try CollectedClientData(credential.clientDataJSON)   // its challenge finds the ceremony
/// let passkey = try verifier.verifyRegistration(credential, clientData: clientData, expectedChallenge: stored)
/// ```
public struct RelyingPartyVerifier: Sendable {
    /// The configuration the checks use (RP id, accepted origins, user verification).
    public let configuration: PasskeyConfiguration
    /// SHA-256 of the RP id.
    let rpIDHash: [UInt8]
    /// ``PasskeyConfiguration/acceptedOrigins``, computed once.
    let origins: Set<String>

    /// A verifier for `configuration`.
    /// - Throws: ``PasskeyConfigurationError`` (`passkeys.rpId`) when passkeys are off.
    public init(configuration: PasskeyConfiguration) throws(PasskeyConfigurationError) {
        guard let rpID = configuration.rpID, !rpID.isEmpty else {
            throw PasskeyConfigurationError(path: "passkeys.rpId", reason: "not set: passkeys are off")
        }
        guard let hash = try? SHA256.hash(Array(rpID.utf8)) else {
            throw PasskeyConfigurationError(path: "passkeys.rpId", reason: "SHA-256 failed")
        }
        self.configuration = configuration
        rpIDHash = hash
        origins = Set(configuration.acceptedOrigins)
    }

    /// The client data checks both ceremonies share (§7.1 steps 7–10, §7.2 steps 11–14): `type`, challenge,
    /// origin, neither cross-origin nor embedded.
    func checkClientData(
        _ clientData: CollectedClientData, bytes: [UInt8], type: String, expectedChallenge: [UInt8]
    ) throws(WebAuthnError) {
        // The caller parsed the client data from the credential to find its challenge; a parse of other bytes
        // would check one text and sign another.
        guard (try? CollectedClientData(bytes)) == clientData else {
            throw .malformed("clientData is not the credential's clientDataJSON")
        }
        guard clientData.type == type else { throw .failed(.type) }
        guard !expectedChallenge.isEmpty, ConstantTime.equals(clientData.challenge, expectedChallenge) else {
            throw .failed(.challenge)
        }
        guard origins.contains(clientData.origin) else { throw .failed(.origin) }
        guard !clientData.crossOrigin, clientData.topOrigin == nil else { throw .failed(.crossOrigin) }
    }

    /// The authenticator data checks both ceremonies share (§7.1 steps 13–17, §7.2 steps 15–18): the RP id hash,
    /// UP, UV when required, BS only with BE.
    func checkFlags(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard ConstantTime.equals(data.rpIDHash, rpIDHash) else { throw .failed(.rpID) }
        guard data.userPresent else { throw .failed(.userPresence) }
        guard data.userVerified || configuration.userVerification != .required else {
            throw .failed(.userVerification)
        }
        guard data.backupEligible || !data.backedUp else { throw .failed(.backupState) }
    }

    /// Whether `id` (base64url, padding tolerated) names `rawID`.
    static func names(_ id: String, _ rawID: [UInt8]) -> Bool {
        guard let decoded = PaddedBase64URL.decode(id) else { return false }
        return decoded == rawID
    }
}
