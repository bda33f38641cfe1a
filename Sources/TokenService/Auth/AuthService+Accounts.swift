import FoundationEssentials
import Store

extension AuthService {
    /// What an identity a provider vouched for signs in to, for both the native flow (`POST /auth/idtoken`) and the
    /// browser flow (`GET /auth/oauth/{provider}/callback`).
    enum AccountOutcome {
        case user(Store.User, IDTokenSignInResult)
        /// The email belongs to a disabled user: refused like a disabled user's own identity, nothing linked.
        case disabled
        case conflict
        case registrationClosed
    }

    /// The account of `(provider, subject)`: a known identity signs in its user; an unknown one whose verified
    /// `email` belongs to a user is linked to it only when `canLink` allows it (else `.conflict`); otherwise a user
    /// without a password is made when registration is open (else `.registrationClosed`), with the provider's
    /// configured `tenant` if any. Signing in to an existing account never changes its tenant: the operator's
    /// choice (`tokenvend users set-tenant`) wins.
    /// - Parameter email: the provider's verified email only, or nil.
    func resolveAccount(provider: String, subject: String, email: String?) async throws(StoreError) -> AccountOutcome {
        let store = identity.store
        if let user = try await store.user(provider: provider, subject: subject) {
            return .user(user, .signedIn)
        }
        let email = email.flatMap(EmailAddress.init)?.value
        if let email, let existing = try await users.find(byEmail: email) {
            guard !existing.isDisabled else { return .disabled }
            // Linking hands the account to whoever holds the provider identity, so both sides must have proven the
            // address: the provider (`email_verified`) and this service (a verified account). An unverified
            // account may have been registered by anyone with someone else's address (pre-hijacking): linking
            // it would let that person's password and sessions into the address owner's account.
            guard try await canLink(provider: provider, to: existing) else { return .conflict }
            if let winner = try await link(provider: provider, subject: subject, to: existing.id, email: email) {
                return .user(winner, .signedIn)
            }
            return .user(existing, .linked)
        }
        guard limits.registrationEnabled else { return .registrationClosed }
        let made = try await store.createUser(
            id: UUID().uuidString.lowercased(), email: email, emailVerifiedAt: email == nil ? nil : now(),
            role: "user", tenantID: identity.tenants[provider], provider: provider, subject: subject, now: now())
        return .user(made.user, made.created ? .created : .signedIn)
    }

    /// Whether an identity of `provider` vouching for `user`'s email may be linked to `user`: only with
    /// `identity.linkVerifiedEmail` on, `provider` in `identity.trustedForLinking`, the account's email verified
    /// by the operator, an email code or a provider in that list (an unknown source is never trusted), and no
    /// identity of `provider` linked to the account already (a second account at the same provider that claims
    /// the address is someone else, or the provider's own mistake).
    func canLink(provider: String, to user: Store.User) async throws(StoreError) -> Bool {
        guard identity.linkVerifiedEmail, identity.trustedForLinking.contains(provider), user.isEmailVerified else {
            return false
        }
        switch user.emailVerifiedBy {
        case .operator?, .emailCode?: break
        case .provider(let name)?: guard identity.trustedForLinking.contains(name) else { return false }
        case nil: return false
        }
        let linked = try await identity.store.identities(userID: user.id)
        return !linked.contains { $0.provider == provider }
    }

    /// Links the identity to `userID`; when a racing sign-in linked it first, the user it was linked to.
    private func link(
        provider: String, subject: String, to userID: String, email: String
    ) async throws(StoreError) -> Store.User? {
        do {
            try await identity.store.link(
                provider: provider, subject: subject, userID: userID, email: email, now: now())
            return nil
        } catch {
            guard case .constraint(.primaryKey) = error,
                let winner = try await identity.store.user(provider: provider, subject: subject)
            else { throw error }
            return winner
        }
    }
}
