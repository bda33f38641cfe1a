import AuthAPI
import Cryptography
import FoundationEssentials
import HTTPServer
import Logging
import Store
import WebAuthn

extension PasskeyEndpoints {
    /// `POST /auth/passkeys/registration/options` (access token; body empty or `{}`) → 200 creation options for the
    /// caller's account: its user handle (made at first use, the same ever after), its email as the name, its
    /// passkeys excluded.
    func registrationOptions(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        _ = try enabledVerifier()
        let caller = try await auth.authenticator.authenticate(request, now: auth.now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        try await limitAddress(request)
        _ = try JSONRequestBody(request, allowed: [], optional: true)
        let handle: String
        let existing: [Passkey]
        let email: String?
        do {
            guard let user = try await auth.users.find(byID: caller.userID) else {
                throw ServiceError.invalidToken(presented: true)
            }
            email = user.email
            handle = try await store.userHandle(
                userID: caller.userID,
                proposing: Base64URL.encode(try SecureRandom.bytes(count: Self.userHandleBytes)))
            existing = try await store.passkeys(userID: caller.userID)
        } catch let error as StoreError {
            throw AuthService.mapStore(error)
        }
        guard let handleBytes = Base64URL.decode(handle) else {
            throw ServiceError.unavailable("The account's passkey handle is unreadable.", retryAfter: 5)
        }
        let challenge = try await issueChallenge(.registration, userID: caller.userID, userHandle: handle, context)
        let name = email ?? "\(configuration.relyingPartyName) account"
        let excluded = existing.compactMap { passkey in
            Base64URL.decode(passkey.credentialID).map {
                CeremonyOptions.Descriptor(id: $0, transports: passkey.transports)
            }
        }
        return Self.options(
            CeremonyOptions.creation(
                challenge: challenge, configuration: configuration, userHandle: handleBytes, userName: name,
                displayName: name, excluding: excluded))
    }

    /// `POST /auth/passkeys/registration` (access token) `{"credential", "name"?}` → 201 `{"passkey"}`: a passkey
    /// added to the caller's account. The client data must name a `registration` challenge of the same account.
    func register(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let verifier = try enabledVerifier()
        let caller = try await auth.authenticator.authenticate(request, now: auth.now())
        context.accessLogMetadata["user.id"] = .string(caller.userID)
        try await limitAddress(request)
        let passkey = try await ceremony(.registration, context) {
            let body = try PasskeyCeremonyBody(request, allowsName: true)
            let name = try Self.name(body.name)
            let credential = try RegistrationCredential(json: body.credential)
            let clientData = try CollectedClientData(credential.clientDataJSON)
            let challenge = try await consumeChallenge(clientData, for: .registration)
            guard challenge.userID == caller.userID else { throw WebAuthnError.failed(.challenge) }
            let verified = try verifier.verifyRegistration(
                credential, clientData: clientData, expectedChallenge: clientData.challenge)
            let passkey = Self.passkey(verified, credential, userID: caller.userID, name: name, now: auth.now())
            let inserted: Bool
            do throws(StoreError) {
                inserted = try await store.insertPasskey(passkey)
            } catch {
                throw AuthService.mapStore(error)
            }
            guard inserted else { throw PasskeyRefusal(reason: .duplicateCredential) }
            return passkey
        }
        context.logger.info("passkey registered", metadata: ["user.id": "\(caller.userID)"])
        return try .json(status: .created, PasskeyResponse(passkey: Self.info(passkey)), headers: .noStore)
    }

    /// The record of a verified registration.
    static func passkey(
        _ verified: VerifiedRegistration, _ credential: RegistrationCredential, userID: String, name: String,
        now: Date
    ) -> Passkey {
        Passkey(
            credentialID: Base64URL.encode(verified.credentialID), userID: userID, publicKey: verified.publicKey,
            algorithm: verified.algorithm.rawValue, signCount: verified.signCount,
            backupEligible: verified.backupEligible, backedUp: verified.backedUp, transports: credential.transports,
            aaguid: verified.aaguid, name: name, createdAt: now)
    }
}
