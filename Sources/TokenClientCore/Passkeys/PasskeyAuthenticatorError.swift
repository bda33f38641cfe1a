/// Why a ``PasskeyAuthenticator`` made no credential or assertion (thrown by ``PlatformPasskeyAuthenticator``; a
/// software authenticator may throw its own errors).
public enum PasskeyAuthenticatorError: Error, Sendable, Equatable {
    /// The user dismissed the sheet, or the device holds no passkey for the RP and the user could not pick one.
    case cancelled
    /// The platform answered with something that is not a passkey credential of the expected kind.
    case unexpectedCredential
    /// The platform refused (no associated domain for the RP id, no passcode on the device…); the text says why.
    case failed(String)
}
