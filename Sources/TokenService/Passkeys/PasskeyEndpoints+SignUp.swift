import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import Logging
import Store
import WebAuthn

extension PasskeyEndpoints {
    /// `POST /auth/passkeys/signup/options` `{"email"?}` (or empty) → 200 creation options for a new account: a new
    /// user handle, the email (when given) as the name. 403 while registration is closed, 409 for an email in use.
    func signUpOptions(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try enabledVerifier()
        try await limitAddress(request)
        guard auth.limits.registrationEnabled else { throw ServiceError.registrationClosed }
        let body = try JSONRequestBody(request, allowed: ["email"], optional: true)
        var email: String?
        if let raw = try body.optionalString("email") {
            guard let address = EmailAddress(raw) else {
                throw ServiceError.invalidRequest("The email address is not valid.")
            }
            email = address.value
        }
        if let email {
            do {
                if try await auth.users.find(byEmail: email) != nil { throw ServiceError.emailTaken }
            } catch let error as StoreError {
                throw AuthService.mapStore(error)
            }
        }
        let handle = try SecureRandom.bytes(count: Self.userHandleBytes)
        let challenge = try await issueChallenge(
            .signup, userHandle: Base64URL.encode(handle), email: email, context)
        let name = email ?? "\(configuration.relyingPartyName) account"
        return Self.options(
            CeremonyOptions.creation(
                challenge: challenge, configuration: configuration, userHandle: handle, userName: name,
                displayName: name, excluding: []))
    }

    /// `POST /auth/passkeys/signup` `{"credential", "name"?}` → 200 the login body plus `created: true`: a new
    /// account without a password (its email, if any, unverified) with this passkey, signed in. A token endpoint:
    /// DPoP binding and cookie mode as at `/auth/login`. 409 when the email was taken since the options.
    func signUp(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let verifier = try enabledVerifier()
        try await limitAddress(request)
        let strategy = try AuthService.strategy(of: request)
        let user = try await ceremony(.signup, context) {
            let body = try PasskeyCeremonyBody(request, allowsName: true)
            let name = try Self.name(body.name)
            let credential = try RegistrationCredential(json: body.credential)
            let clientData = try CollectedClientData(credential.clientDataJSON)
            // Checked before the challenge is used up: a bad proof costs the client nothing but a new proof.
            let binding = try await auth.authenticator.dpop.bindingForNewSession(
                request, strategy: strategy, now: auth.now())
            let challenge = try await consumeChallenge(clientData, for: .signup)
            guard let handle = challenge.userHandle else { throw WebAuthnError.failed(.challenge) }
            guard auth.limits.registrationEnabled else { throw ServiceError.registrationClosed }
            let verified = try verifier.verifyRegistration(
                credential, clientData: clientData, expectedChallenge: clientData.challenge)
            let now = auth.now()
            let user = Store.User(
                id: UUID().uuidString.lowercased(), email: challenge.email, passwordHash: nil, role: "user",
                tenantID: nil, disabledAt: nil, createdAt: now)
            let passkey = Self.passkey(verified, credential, userID: user.id, name: name, now: now)
            do throws(StoreError) {
                try await store.createUser(user, userHandle: handle, passkey: passkey)
            } catch .emailTaken {
                throw ServiceError.emailTaken
            } catch .constraint(.primaryKey) {
                throw PasskeyRefusal(reason: .duplicateCredential)
            } catch {
                throw AuthService.mapStore(error)
            }
            return (user, binding)
        }
        context.accessLogMetadata["user.id"] = .string(user.0.id)
        context.logger.info("account created with a passkey", metadata: ["user.id": "\(user.0.id)"])
        let session = try await auth.openSession(for: user.0, request, dpopThumbprint: user.1)
        auth.metrics.logins.increment(.succeeded)
        return try auth.tokenResponse(
            user: user.0, session: session, counter: session.counter, strategy: strategy, created: true)
    }
}
