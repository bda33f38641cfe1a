import AuthAPI
import Cryptography
import HTTPServer
import Logging
import Store
import WebAuthn

extension PasskeyEndpoints {
    /// `POST /auth/passkeys/authentication/options` (body empty or `{}`) → 200 request options for a discoverable
    /// credential.
    func authenticationOptions(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try enabledVerifier()
        try await limitAddress(request)
        _ = try JSONRequestBody(request, allowed: [], optional: true)
        let challenge = try await issueChallenge(.authentication, context)
        return Self.options(CeremonyOptions.request(challenge: challenge, configuration: configuration))
    }

    /// `POST /auth/passkeys/authentication` `{"credential"}` → 200 the login body. A token endpoint: DPoP binding
    /// and cookie mode as at `/auth/login`. The challenge is used up before the credential is looked up, so one
    /// challenge never probes two credentials; the counter advances in one conditional write (on every instance).
    func authenticate(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let verifier = try enabledVerifier()
        try await limitAddress(request)
        let strategy = try AuthService.strategy(of: request)
        let (user, binding) = try await ceremony(.authentication, context) {
            let body = try PasskeyCeremonyBody(request, allowsName: false)
            let credential = try AuthenticationCredential(json: body.credential)
            let clientData = try CollectedClientData(credential.clientDataJSON)
            let binding = try await auth.authenticator.dpop.bindingForNewSession(
                request, strategy: strategy, now: auth.now())
            _ = try await consumeChallenge(clientData, for: .authentication)
            let found: (passkey: Passkey, user: Store.User, userHandle: String)?
            do throws(StoreError) {
                found = try await store.passkey(credentialID: Base64URL.encode(credential.rawID))
            } catch {
                throw AuthService.mapStore(error)
            }
            guard let found else { throw PasskeyRefusal(reason: .unknownCredential) }
            guard !found.user.isDisabled else { throw PasskeyRefusal(reason: .accountDisabled) }
            guard let handle = Base64URL.decode(found.userHandle) else { throw WebAuthnError.failed(.userHandle) }
            let verified = try verifier.verifyAuthentication(
                credential, clientData: clientData, expectedChallenge: clientData.challenge,
                publicKey: try COSEKey(bytes: found.passkey.publicKey), storedSignCount: found.passkey.signCount,
                expectedUserHandle: handle,
                // BE is fixed when a credential is made (WebAuthn §6.1.3): an assertion that flips it is refused.
                storedBackupEligible: found.passkey.backupEligible)
            let recorded: Bool
            do throws(StoreError) {
                recorded = try await store.recordAssertion(
                    credentialID: found.passkey.credentialID, signCount: verified.signCount,
                    backedUp: verified.backedUp, now: auth.now())
            } catch {
                throw AuthService.mapStore(error)
            }
            // Another assertion with this counter was recorded first (here or on another instance).
            guard recorded else { throw WebAuthnError.failed(.cloneSuspected) }
            return (found.user, binding)
        }
        context.accessLogMetadata["user.id"] = .string(user.id)
        let session = try await auth.openSession(for: user, request, dpopThumbprint: binding)
        auth.metrics.logins.increment(.succeeded)
        return try auth.tokenResponse(user: user, session: session, counter: session.counter, strategy: strategy)
    }
}
