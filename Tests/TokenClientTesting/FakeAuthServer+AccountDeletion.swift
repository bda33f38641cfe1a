public import AuthAPI
public import Foundation
import TokenClientCore

/// What the fake's deletion endpoints remember and how they answer.
public struct FakeDeletionState: Sendable {
    /// Whether the signed-in session counts as recent (`auth_time` within `account.reauthenticationSeconds`), so
    /// a passwordless deletion is accepted.
    public var recentSignIn = true
    /// Whether the fake user has a password (then `DELETE /auth/account` needs it).
    public var hasPassword = true
    /// The ids of the accounts deleted so far, in order.
    public var deleted: [String] = []

    /// Creates the initial state.
    public init() {}
}

extension FakeAuthServer {
    /// `DELETE /auth/account`: the password when the account has one, else a recent sign-in; on success every
    /// token of the fake stops working and the account is gone (200 `{"deleted": true}`).
    func deleteAccount(_ request: Recorded) -> (Int, Data) {
        guard authorized(request) else { return Self.error(401, .invalidToken) }
        let asked = request.body.flatMap { try? JSONDecoder().decode(AccountDeletionRequest.self, from: $0) }
        if request.body?.isEmpty == false, asked == nil { return Self.error(400, .invalidRequest) }
        let user = owner(of: request)
        return state.withLock { state in
            let accepted =
                state.deletion.hasPassword
                ? asked?.password == state.email.password : asked?.password == nil && state.deletion.recentSignIn
            guard accepted else { return Self.error(401, .reauthenticationRequired) }
            forget(user, &state)
            return (200, Self.json(AccountDeletedResponse(deleted: true)))
        }
    }

    /// `POST /auth/account/deletion` (202 for any well-formed address, a code only for a known one) and its
    /// `/confirm` (the code deletes the account).
    func accountDeletionByEmail(_ request: Recorded) -> (Int, Data) {
        if let failure = state.withLock({ $0.email.failure }) { return Self.error(failure.status, failure.code) }
        let body = request.body ?? Data()
        if request.path == "/auth/account/deletion" {
            guard let asked = try? JSONDecoder().decode(EmailRequest.self, from: body), asked.email.contains("@")
            else { return Self.error(400, .invalidRequest) }
            state.withLock { state in
                guard state.email.accounts.contains(asked.email) else { return }
                state.email.issued += 1
                state.email.codes["deletion \(asked.email)"] = String(100_000 + state.email.issued)
                state.email.sent.append(("deletion", asked.email))
            }
            return (202, Data("{}".utf8))
        }
        guard let asked = try? JSONDecoder().decode(AccountDeletionConfirmRequest.self, from: body) else {
            return Self.error(400, .invalidRequest)
        }
        // Normalised as the server does it (trimmed, lowercased; NFKC does not matter here).
        let address = asked.email.lowercased().trimmingCharacters(in: .whitespaces)
        return state.withLock { state in
            let key = "deletion \(address)"
            guard state.email.codes[key] == asked.code else { return Self.error(400, .invalidCode) }
            state.email.codes[key] = nil
            forget(Self.users[address] ?? User(id: "u-\(address)", email: address), &state)
            return (200, Self.json(AccountDeletedResponse(deleted: true)))
        }
    }

    /// Deletes `user`: its address may register again, and no token of the fake works any more.
    private func forget(_ user: User, _ state: inout State) {
        state.deletion.deleted.append(user.id)
        if let email = user.email { state.email.accounts.remove(email) }
        state.validAccess.removeAll()
        state.liveRefresh = nil
    }
}
