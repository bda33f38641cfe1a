public import AuthAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Account deletion (issue 33): from inside the app (App Store Review Guideline 5.1.1(v)), and by an emailed code
/// for a user who no longer has the app.
///
/// Every method throws ``TokenClientError``; ``TokenClientError/accountDeletionFailure`` names the refusals an app
/// acts on (``AccountDeletionFailure/reauthenticationRequired``, ``AccountDeletionFailure/invalidCode``…).
extension AuthSession {
    /// Deletes the signed-in account (`DELETE /auth/account`): the user, its identities, passkeys and every
    /// session, on every device; the server also revokes the user's Sign in with Apple tokens.
    ///
    /// On success the tokens are cleared (memory and store), ``SessionState/signedOut`` is published and
    /// ``SessionEvent/signedOut(reason:)`` says ``SignOutReason/accountDeleted``. A refusal leaves the session as
    /// it was: a 401 `reauthentication_required` (``AccountDeletionFailure/reauthenticationRequired``) asks for the
    /// password, or, for an account without one, a fresh sign-in (then call this again).
    ///
    /// When the answer is lost (``TokenClientError/transport(_:)``) the account may or may not be gone; calling
    /// again either deletes it or ends the session with ``SignOutReason/revoked`` and throws
    /// ``TokenClientError/signedOut``.
    /// - Parameter password: the account's password; nil for an account without one (signed in with a provider
    ///   or by email code), whose sign-in must be recent.
    /// - Throws: ``TokenClientError/server(status:body:)`` (401 `reauthentication_required`, 429),
    ///   ``TokenClientError/signedOut``, ``TokenClientError/storageLocked``, ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    public func deleteAccount(password: String?) async throws {
        let startedIn = generation
        let request = makeRequest("DELETE", "auth/account", body: AccountDeletionRequest(password: password))
        let (data, response) = try await send(request)
        let answer = try WireCoding.decodeSuccess(AccountDeletedResponse.self, data: data, response: response)
        guard answer.deleted else { throw TokenClientError.invalidResponse }
        // A sign-in as someone else while the request ran is not the deleted account: leave it alone.
        if generation == startedIn { signOutLocally(reason: .accountDeleted) }
    }

    /// Asks for a deletion code to `email` (`POST /auth/account/deletion`), for deleting an account without
    /// signing in. Succeeds whether or not an account has the address: the server does not say. Needs no session
    /// and leaves the current one alone.
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_request` for a malformed address, 429,
    ///   503 when the server sends no email), ``TokenClientError/transport(_:)``.
    public func requestAccountDeletion(email: String) async throws {
        let request = makeRequest("POST", "auth/account/deletion", body: EmailRequest(email: email))
        let (data, response) = try await WireCoding.exchange(transport, request)
        try WireCoding.requireSuccess(data: data, response: response)
    }

    /// Deletes the account of `email` with the code sent to it (`POST /auth/account/deletion/confirm`). When
    /// this session is signed in to that account (same address, ignoring case), it ends as
    /// ``deleteAccount(password:)`` ends it (``SignOutReason/accountDeleted``); any other session is left alone.
    /// - Throws: ``TokenClientError/server(status:body:)`` (400 `invalid_code`, 429), ``TokenClientError/transport(_:)``,
    ///   ``TokenClientError/invalidResponse``.
    public func confirmAccountDeletion(email: String, code: String) async throws {
        let startedIn = generation
        let body = AccountDeletionConfirmRequest(email: email, code: code)
        let (data, response) = try await WireCoding.exchange(
            transport, makeRequest("POST", "auth/account/deletion/confirm", body: body))
        let answer = try WireCoding.decodeSuccess(AccountDeletedResponse.self, data: data, response: response)
        guard answer.deleted else { throw TokenClientError.invalidResponse }
        if generation == startedIn, let signedIn = tokens?.user?.email, Self.sameAddress(signedIn, email) {
            signOutLocally(reason: .accountDeleted)
        }
    }

    /// Whether two addresses are the same account's as far as the client can tell: equal once trimmed and
    /// lowercased (the server also applies NFKC; a miss only means the session ends at its next refresh instead).
    static func sameAddress(_ first: String, _ second: String) -> Bool {
        func folded(_ text: String) -> String {
            String(text.lowercased().drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        return folded(first) == folded(second)
    }
}
