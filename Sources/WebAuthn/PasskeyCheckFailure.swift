/// The check a well-formed ceremony failed: the `reason` label of `tokenvend_passkey_ceremonies_total` (fixed
/// values, so every series exists from start-up) and the reason in the log.
public enum PasskeyCheckFailure: String, Sendable, Hashable, CaseIterable {
    /// `clientDataJSON.type` is not `webauthn.create` (registration) or `webauthn.get` (authentication).
    case type
    /// The client data's challenge is not the one expected (the caller looks challenges up; a missing, used,
    /// expired or foreign one is reported by the caller with this reason too).
    case challenge
    /// `clientDataJSON.origin` is not one of the accepted origins.
    case origin
    /// `clientDataJSON.crossOrigin` is true, or a `topOrigin` is present (tokenvend accepts no embedded ceremony).
    case crossOrigin = "cross_origin"
    /// `rpIdHash` is not SHA-256 of the RP id.
    case rpID = "rp_id"
    /// Flag UP is clear.
    case userPresence = "user_presence"
    /// Flag UV is clear while user verification is `required`.
    case userVerification = "user_verification"
    /// Flag BS set without flag BE, or (authentication) BE differing from the registered value.
    case backupState = "backup_state"
    /// A registration whose authenticator data has no attested credential data (flag AT clear).
    case attestedCredential = "attested_credential"
    /// The credential's algorithm is not ES256, EdDSA or RS256, or the COSE key's `alg` disagrees with its type.
    case algorithm
    /// A COSE key that is not a well-formed key of its algorithm: a P-256 point off the curve, an Ed25519 key that is
    /// not 32 bytes, an RSA modulus under 2048 bits.
    case publicKey = "public_key"
    /// A credential id longer than 1023 bytes, or empty.
    case credentialID = "credential_id"
    /// `id`, `rawId` and the authenticator data's credential id do not name the same credential.
    case credentialMismatch = "credential_mismatch"
    /// The assertion's signature does not verify with the stored key.
    case signature
    /// The assertion's `userHandle` is missing or not the credential's account handle.
    case userHandle = "user_handle"
    /// The sign counter did not increase while the stored or the new one is non-zero.
    case cloneSuspected = "clone_suspected"
}
