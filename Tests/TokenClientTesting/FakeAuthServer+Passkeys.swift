public import AuthAPI
public import Foundation
import TokenClientCore

/// What the fake's passkey endpoints remember and how they answer. Credentials are read, not verified: the fake checks
/// the client data's `type` and `challenge` (issued, unused, of the same ceremony and account), the credential id and
/// the user handle; signatures are the real server's business (TokenClientEndToEndTests).
public struct FakePasskeyState: Sendable {
    /// A registered passkey and its account.
    public struct Stored: Sendable {
        public var info: PasskeyInfo
        public var owner: User
        public var userHandle: String
    }

    /// An issued challenge: its ceremony (`registration`, `signup`, `authentication`), the account it was issued for
    /// (registration) and the email asked for (sign-up).
    public struct Challenge: Sendable {
        public var ceremony: String
        public var user: User?
        public var email: String?
        /// The user handle of the options (a new one for a sign-up).
        public var handle: String = ""
    }

    /// False: every `/auth/passkeys…` route answers 404, like a server without `passkeys.rpId`.
    public var enabled = true
    /// False: sign-up options and sign-up answer 403 `registration_closed`.
    public var registrationOpen = true
    /// Addresses that belong to an account (sign-up with one is 409 `email_taken`).
    public var takenEmails: Set<String> = [FakeAuthServer.email, FakeAuthServer.otherUser.email ?? ""]
    /// Answered by every passkey route instead of its own answer, when set.
    public var failure: (status: Int, code: ErrorCode)?
    /// Outstanding challenges.
    public var challenges: [String: Challenge] = [:]
    public var challengesIssued = 0
    /// Registered passkeys, oldest first.
    public var passkeys: [Stored] = []
    /// Accounts without a password (made by a passkey sign-up): their last passkey cannot be deleted.
    public var passwordless: Set<String> = []
    public var accountsCreated = 0

    /// Creates the initial state.
    public init() {}
}

extension FakeAuthServer {
    /// The `rp.id` and `rpId` of the fake's options.
    public static let passkeyRelyingParty = "example.test"

    /// The user handle of `user`'s first passkey when it registers one while signed in (base64url).
    public static func passkeyHandle(_ user: User) -> String { base64URL(Data("handle-\(user.id)".utf8)) }

    /// Routes `/auth/passkeys…`.
    func passkeyRoute(_ request: Recorded) -> (Int, Data) {
        let failure: (status: Int, code: ErrorCode)?? = state.withLock {
            $0.passkeys.enabled ? .some($0.passkeys.failure) : .none
        }
        guard let failure else { return Self.error(404, .notFound) }
        if let failure { return Self.error(failure.status, failure.code) }
        switch (request.method, request.path) {
        case ("POST", "/auth/passkeys/registration/options"):
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            let user = owner(of: request)
            return (200, Self.json(creationOptions(ceremony: "registration", user: user, email: user.email)))
        case ("POST", "/auth/passkeys/registration"):
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            return registerPasskey(request, owner: owner(of: request))
        case ("POST", "/auth/passkeys/signup/options"): return signUpOptions(request)
        case ("POST", "/auth/passkeys/signup"): return signUpWithPasskey(request)
        case ("POST", "/auth/passkeys/authentication/options"):
            let challenge = issueChallenge(.init(ceremony: "authentication"))
            return (
                200,
                Self.json(
                    PasskeyRequestOptions(
                        challenge: challenge, rpId: Self.passkeyRelyingParty, userVerification: "required",
                        timeout: 300_000))
            )
        case ("POST", "/auth/passkeys/authentication"): return signInWithPasskey(request)
        case ("GET", "/auth/passkeys"):
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            let user = owner(of: request)
            let mine = state.withLock { $0.passkeys.passkeys.filter { $0.owner.id == user.id }.map(\.info) }
            return (200, Self.json(PasskeyListResponse(passkeys: mine)))
        default: return managePasskey(request)
        }
    }

    /// `PATCH` and `DELETE /auth/passkeys/{id}`.
    private func managePasskey(_ request: Recorded) -> (Int, Data) {
        let prefix = "/auth/passkeys/"
        guard request.path.hasPrefix(prefix), request.method == "PATCH" || request.method == "DELETE" else {
            return Self.error(404, .notFound)
        }
        guard authorized(request) else { return Self.error(401, .invalidToken) }
        let user = owner(of: request)
        let id = String(request.path.dropFirst(prefix.count))
        let rename = request.body.flatMap { try? JSONDecoder().decode(PasskeyRenameRequest.self, from: $0) }
        if request.method == "PATCH", rename?.name.isEmpty != false { return Self.error(400, .invalidRequest) }
        return state.withLock { state in
            guard let index = state.passkeys.passkeys.firstIndex(where: { $0.info.id == id && $0.owner.id == user.id })
            else { return Self.error(404, .notFound) }
            if let rename {
                state.passkeys.passkeys[index].info.name = rename.name
                return (200, Self.json(PasskeyResponse(passkey: state.passkeys.passkeys[index].info)))
            }
            let others = state.passkeys.passkeys.filter { $0.owner.id == user.id }.count - 1
            if others == 0, state.passkeys.passwordless.contains(user.id) {
                return Self.error(409, .lastSignInMethod)
            }
            state.passkeys.passkeys.remove(at: index)
            return (204, Data())
        }
    }

    private func signUpOptions(_ request: Recorded) -> (Int, Data) {
        let body = request.body ?? Data()
        guard let asked = try? JSONDecoder().decode(PasskeySignUpOptionsRequest.self, from: body) else {
            return Self.error(400, .invalidRequest)
        }
        if let email = asked.email, !email.contains("@") { return Self.error(400, .invalidRequest) }
        let (open, taken) = state.withLock {
            ($0.passkeys.registrationOpen, asked.email.map($0.passkeys.takenEmails.contains) ?? false)
        }
        guard open else { return Self.error(403, .registrationClosed) }
        guard !taken else { return Self.error(409, .emailTaken) }
        return (200, Self.json(creationOptions(ceremony: "signup", user: nil, email: asked.email)))
    }

    private func creationOptions(ceremony: String, user: User?, email: String?) -> PasskeyCreationOptions {
        // An account keeps the handle of its first passkey; a sign-up gets a new one.
        let kept = state.withLock { state in
            user.flatMap { user in state.passkeys.passkeys.first { $0.owner.id == user.id } }
        }
        let handle =
            kept?.userHandle ?? user.map(Self.passkeyHandle)
            ?? Self.base64URL(Data("new-handle-\(UUID().uuidString)".utf8))
        let challenge = issueChallenge(.init(ceremony: ceremony, user: user, email: email, handle: handle))
        let excluded = state.withLock { state in
            state.passkeys.passkeys.filter { $0.owner.id == user?.id }.map {
                PasskeyCredentialDescriptor(id: $0.info.id, transports: ["internal"])
            }
        }
        let name = email ?? "Fake account"
        return PasskeyCreationOptions(
            challenge: challenge, rp: .init(id: Self.passkeyRelyingParty, name: "Fake"),
            user: .init(id: handle, name: name, displayName: name),
            pubKeyCredParams: [-7, -8, -257].map { .init(alg: $0) }, excludeCredentials: excluded,
            authenticatorSelection: .init(userVerification: "required"), timeout: 300_000)
    }

    private func issueChallenge(_ challenge: FakePasskeyState.Challenge) -> String {
        state.withLock { state in
            state.passkeys.challengesIssued += 1
            let value = Self.base64URL(Data("challenge-\(state.passkeys.challengesIssued)".utf8))
            state.passkeys.challenges[value] = challenge
            return value
        }
    }

    /// The outstanding challenge of `clientDataJSON` when its type is `type` and its ceremony `ceremony`, consumed.
    private func consumeChallenge(_ clientDataJSON: String, type: String, ceremony: String, _ state: inout State)
        -> FakePasskeyState.Challenge?
    {
        guard let bytes = Self.base64URLDecoded(clientDataJSON),
            let clientData = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            clientData["type"] as? String == type, let challenge = clientData["challenge"] as? String,
            let issued = state.passkeys.challenges.removeValue(forKey: challenge), issued.ceremony == ceremony
        else { return nil }
        return issued
    }

    private func registerPasskey(_ request: Recorded, owner: User) -> (Int, Data) {
        guard let body = request.body,
            let asked = try? JSONDecoder().decode(PasskeyRegistrationRequest.self, from: body)
        else { return Self.error(400, .invalidRequest) }
        return state.withLock { state in
            guard
                let issued = consumeChallenge(
                    asked.credential.response.clientDataJSON, type: "webauthn.create", ceremony: "registration", &state),
                issued.user?.id == owner.id,
                !state.passkeys.passkeys.contains(where: { $0.info.id == asked.credential.id })
            else { return Self.error(401, .invalidCredential) }
            let info = store(asked, owner: owner, handle: issued.handle, &state)
            return (201, Self.json(PasskeyResponse(passkey: info)))
        }
    }

    private func signUpWithPasskey(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body,
            let asked = try? JSONDecoder().decode(PasskeyRegistrationRequest.self, from: body)
        else { return Self.error(400, .invalidRequest) }
        return state.withLock { state in
            guard state.passkeys.registrationOpen else { return Self.error(403, .registrationClosed) }
            guard
                let issued = consumeChallenge(
                    asked.credential.response.clientDataJSON, type: "webauthn.create", ceremony: "signup", &state),
                !state.passkeys.passkeys.contains(where: { $0.info.id == asked.credential.id })
            else { return Self.error(401, .invalidCredential) }
            if let email = issued.email, state.passkeys.takenEmails.contains(email) {
                return Self.error(409, .emailTaken)
            }
            state.passkeys.accountsCreated += 1
            let user = User(id: "u-passkey-\(state.passkeys.accountsCreated)", email: issued.email)
            if let email = issued.email { state.passkeys.takenEmails.insert(email) }
            state.passkeys.passwordless.insert(user.id)
            _ = store(asked, owner: user, handle: issued.handle, &state)
            var answer = signInPair(&state, user: user)
            answer.created = true
            return (200, Self.json(answer))
        }
    }

    private func signInWithPasskey(_ request: Recorded) -> (Int, Data) {
        guard let body = request.body,
            let asked = try? JSONDecoder().decode(PasskeyAuthenticationRequest.self, from: body)
        else { return Self.error(400, .invalidRequest) }
        return state.withLock { state in
            guard
                consumeChallenge(
                    asked.credential.response.clientDataJSON, type: "webauthn.get", ceremony: "authentication", &state)
                    != nil,
                let index = state.passkeys.passkeys.firstIndex(where: { $0.info.id == asked.credential.id }),
                asked.credential.response.userHandle == state.passkeys.passkeys[index].userHandle
            else { return Self.error(401, .invalidCredential) }
            state.passkeys.passkeys[index].info.lastUsedAt = clock.now
            return (200, Self.json(signInPair(&state, user: state.passkeys.passkeys[index].owner)))
        }
    }

    private func store(_ asked: PasskeyRegistrationRequest, owner: User, handle: String, _ state: inout State)
        -> PasskeyInfo
    {
        let info = PasskeyInfo(
            id: asked.credential.id, name: asked.name ?? "Passkey", createdAt: clock.now, backedUp: true,
            deviceType: .multiDevice)
        state.passkeys.passkeys.append(.init(info: info, owner: owner, userHandle: handle))
        return info
    }

    private static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
