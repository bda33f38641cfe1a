public import AuthAPI

/// What makes passkeys for an ``AuthSession``: the platform's authenticator (on Apple platforms
/// ``PlatformPasskeyAuthenticator`` in `TokenClient`, over `ASAuthorizationPlatformPublicKeyCredentialProvider`), or a
/// software one in tests.
///
/// The session asks the server for options, hands them here, and sends back what comes out
/// (``AuthSession/signUpWithPasskey(email:name:authenticator:)``, ``AuthSession/signInWithPasskey(authenticator:)``,
/// ``AuthSession/addPasskey(name:authenticator:)``). ``PasskeyCreationParameters`` and ``PasskeyRequestParameters``
/// decode the options' base64url members for platform APIs that take bytes; the credentials' raw-bytes initializers
/// (``AuthAPI/PasskeyRegistrationCredential/init(credentialID:clientDataJSON:attestationObject:transports:authenticatorAttachment:)``,
/// ``AuthAPI/PasskeyAssertionCredential/init(credentialID:clientDataJSON:authenticatorData:signature:userHandle:authenticatorAttachment:)``)
/// encode what they answer.
public protocol PasskeyAuthenticator: Sendable {
    /// Makes a new discoverable credential for `options` (WebAuthn's `navigator.credentials.create`).
    /// - Throws: whatever the authenticator throws when the user cancels or it cannot make one (the session passes
    ///   it through unchanged).
    func makeCredential(for options: PasskeyCreationOptions) async throws -> PasskeyRegistrationCredential

    /// Makes an assertion with one of the passkeys the authenticator holds for `options.rpId`
    /// (`navigator.credentials.get`).
    /// - Throws: as ``makeCredential(for:)``.
    func makeAssertion(for options: PasskeyRequestOptions) async throws -> PasskeyAssertionCredential
}
