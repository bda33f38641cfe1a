public import AuthAPI
public import Foundation
import TokenClientCore

/// What the fake's email-code endpoints remember: the codes it "sent", by purpose and address.
public struct FakeEmailState: Sendable {
    /// The live code of each `"<purpose> <address>"` (purposes: `verification`, `password_reset`, `sign_in`,
    /// `email_change`); a confirm consumes it.
    public var codes: [String: String] = [:]
    /// Every message "sent": purpose and address, in order.
    public var sent: [(purpose: String, address: String)] = []
    /// Codes issued so far (the codes are `100001`, `100002`, …).
    public var issued = 0
    /// Whether the signed-in user's email is verified (the fake has one account of interest).
    public var verified = false
    /// The fake user's email after a confirmed change.
    public var currentEmail = FakeAuthServer.email
    /// The fake user's password (changed by a reset or a change).
    public var password = FakeAuthServer.password
    /// `email.signInCodes`: when false, `POST /auth/email/code…` is 404.
    public var signInCodes = true
    /// Addresses with an account (a sign-in code for another one creates it).
    public var accounts: Set<String> = [FakeAuthServer.email]
    /// Answer every request with this status and code instead (429, 503…).
    public var failure: (status: Int, code: ErrorCode)?

    /// Creates the initial state.
    public init() {}
}

extension FakeAuthServer {
    /// The live code the fake "sent" for `purpose` to `address`, if any.
    public func emailCode(_ purpose: String, to address: String) -> String? {
        state.withLock { $0.email.codes["\(purpose) \(address)"] }
    }

    /// The email endpoints: enumeration-safe requests answer 202 for any address (a code only for a known one),
    /// confirms check the one live code.
    func emailFlow(_ request: Recorded) -> (Int, Data) {
        if let failure = state.withLock({ $0.email.failure }) { return Self.error(failure.status, failure.code) }
        let body = request.body ?? Data()
        let decoder = JSONDecoder()
        switch request.path {
        case "/auth/email/verification":
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            return state.withLock { state in
                if !state.email.verified { issue(&state.email, "verification", state.email.currentEmail) }
                return (202, Data("{}".utf8))
            }
        case "/auth/email/verification/confirm", "/auth/email/change/confirm":
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            guard let asked = try? decoder.decode(EmailCodeRequest.self, from: body) else {
                return Self.error(400, .invalidRequest)
            }
            return confirmOwnCode(request.path, code: asked.code)
        case "/auth/password/reset", "/auth/email/code":
            let signIn = request.path == "/auth/email/code"
            if signIn, !state.withLock({ $0.email.signInCodes }) { return Self.error(404, .notFound) }
            guard let asked = try? decoder.decode(EmailRequest.self, from: body), asked.email.contains("@") else {
                return Self.error(400, .invalidRequest)
            }
            state.withLock { state in
                if signIn || state.email.accounts.contains(asked.email) {
                    issue(&state.email, signIn ? "sign_in" : "password_reset", asked.email)
                }
            }
            return (202, Data("{}".utf8))
        case "/auth/password/reset/confirm":
            guard let asked = try? decoder.decode(PasswordResetConfirmRequest.self, from: body) else {
                return Self.error(400, .invalidRequest)
            }
            if asked.newPassword == "password1234" { return Self.error(400, .weakPassword) }
            return redeemSignIn("password_reset", asked.email, asked.code) { state in
                state.email.password = asked.newPassword
                return nil
            }
        case "/auth/email/code/confirm":
            guard state.withLock({ $0.email.signInCodes }) else { return Self.error(404, .notFound) }
            guard let asked = try? decoder.decode(EmailCodeSignInRequest.self, from: body) else {
                return Self.error(400, .invalidRequest)
            }
            return redeemSignIn("sign_in", asked.email, asked.code) { state in
                state.email.accounts.insert(asked.email).inserted
            }
        case "/auth/password/change":
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            guard let asked = try? decoder.decode(PasswordChangeRequest.self, from: body) else {
                return Self.error(400, .invalidRequest)
            }
            return state.withLock { state in
                guard asked.currentPassword == state.email.password else { return Self.error(401, .invalidCredentials) }
                state.email.password = asked.newPassword
                return (200, Data("{}".utf8))
            }
        case "/auth/email/change":
            guard authorized(request) else { return Self.error(401, .invalidToken) }
            guard let asked = try? decoder.decode(EmailChangeRequest.self, from: body) else {
                return Self.error(400, .invalidRequest)
            }
            return state.withLock { state in
                guard asked.currentPassword == state.email.password else { return Self.error(401, .invalidCredentials) }
                guard !state.email.accounts.contains(asked.newEmail) else { return Self.error(409, .emailTaken) }
                issue(&state.email, "email_change", asked.newEmail)
                return (202, Data("{}".utf8))
            }
        default:
            return Self.error(404, .notFound)
        }
    }

    private func issue(_ email: inout FakeEmailState, _ purpose: String, _ address: String) {
        email.issued += 1
        email.codes["\(purpose) \(address)"] = String(100_000 + email.issued)
        email.sent.append((purpose, address))
    }

    /// Verification or change confirm: the code of the signed-in user's purpose.
    private func confirmOwnCode(_ path: String, code: String) -> (Int, Data) {
        state.withLock { state in
            let change = path == "/auth/email/change/confirm"
            let key =
                change
                ? state.email.codes.keys.first { $0.hasPrefix("email_change ") }
                : "verification \(state.email.currentEmail)"
            guard let key, state.email.codes[key] == code else { return Self.error(400, .invalidCode) }
            state.email.codes[key] = nil
            if change { state.email.currentEmail = String(key.dropFirst("email_change ".count)) }
            state.email.verified = true
            let user = User(id: Self.user.id, email: state.email.currentEmail, emailVerified: true)
            return (200, Self.json(UserResponse(user: user)))
        }
    }

    /// Reset or sign-in confirm: consumes the code and answers a new session (`created` for a sign-in, from
    /// `apply`'s result).
    private func redeemSignIn(
        _ purpose: String, _ address: String, _ code: String, apply: (inout State) -> Bool?
    ) -> (Int, Data) {
        state.withLock { state in
            let key = "\(purpose) \(address)"
            guard state.email.codes[key] == code else { return Self.error(400, .invalidCode) }
            state.email.codes[key] = nil
            let created = apply(&state)
            let user = User(id: Self.users[address]?.id ?? "u-\(address)", email: address, emailVerified: true)
            var answer = signInPair(&state, user: user)
            answer.created = created
            return (200, Self.json(answer))
        }
    }
}
