import Store

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension AccountAdministration {
    /// One identity of an account as `users identities` prints it.
    public struct LinkedIdentity: Sendable, Equatable {
        /// The configured provider name.
        public let provider: String
        /// The provider's `sub`.
        public let subject: String
        /// The email the provider gave when it was linked, or nil.
        public let email: String?
        /// When it was linked.
        public let createdAt: Date
    }

    /// An account's identities (`tokenvend users identities`).
    /// - Parameter account: the account's email, or its user id (for an account without an email): anything
    ///   without an `@` is taken as a user id.
    /// - Throws: `.invalidEmail`, `.notFound` for an unknown account, `.store`.
    public func identities(account: String) async throws(Failure) -> [LinkedIdentity] {
        let user = try await find(account)
        do {
            return try await backend.identities.identities(userID: user.id).map {
                LinkedIdentity(provider: $0.provider, subject: $0.subject, email: $0.email, createdAt: $0.createdAt)
            }
        } catch {
            throw .store("\(error)")
        }
    }

    /// Removes one identity of an account (`tokenvend users unlink-identity`): the account can no longer sign
    /// in with it, and a later sign-in with that identity is treated as a new one. Sessions stay: revoke them
    /// with `users disable` if the identity was abused.
    /// - Parameter account: as in `identities(account:)`.
    /// - Throws: `.invalidEmail`, `.notFound` for an unknown account, `.identityNotFound` when the account has
    ///   no identity (provider, subject), `.store`.
    public func unlinkIdentity(account: String, provider: String, subject: String) async throws(Failure) {
        let user = try await find(account)
        // Only an identity of this account, decided by the delete itself: an operator's typo must not unlink
        // someone else's, nor may a link made to another user between a check and the delete.
        let removed: Bool
        do {
            removed = try await backend.identities.unlink(provider: provider, subject: subject, userID: user.id)
        } catch {
            throw .store("\(error)")
        }
        guard removed else { throw .identityNotFound }
    }

    /// The user an email or user id names.
    func find(_ account: String) async throws(Failure) -> Store.User {
        let found: Store.User?
        if account.contains("@") {
            guard let email = EmailAddress(account) else { throw .invalidEmail }
            do { found = try await users.find(byEmail: email.value) } catch { throw .store("\(error)") }
        } else {
            do { found = try await users.find(byID: account) } catch { throw .store("\(error)") }
        }
        guard let found else { throw .notFound }
        return found
    }
}
