import Foundation
import Store
import StoreTesting
import Testing

/// `users.email_verified_by` gives the same answers on SQLite and PostgreSQL: the operator for an account created
/// verified or verified later, the provider for an account a provider made, nothing for an unverified email.
@Suite(.timeLimit(.minutes(1))) struct EmailVerificationSourceContractTests {
    @Test("the stored text of every source reads back as that source; anything else is unknown")
    func storedValues() {
        for source in [EmailVerificationSource.operator, .emailCode, .provider("apple"), .provider("corp")] {
            #expect(EmailVerificationSource(storedValue: source.storedValue) == source)
        }
        #expect(EmailVerificationSource.provider("google").storedValue == "provider:google")
        #expect(EmailVerificationSource.emailCode.storedValue == "email_code")
        for unknown in ["", "provider:", "Operator", "admin"] {
            #expect(EmailVerificationSource(storedValue: unknown) == nil)
        }
    }

    @Test("who verified an email is recorded and read back", arguments: Backend.allCases)
    func recorded(backend: Backend) async throws {
        try await backend.with { (store: any StoreBackend) async throws in
            let plain = try await store.users.create(
                id: "u-plain", email: "plain@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
                emailVerifiedAt: nil, now: Fixture.at(0))
            #expect(plain.emailVerifiedBy == nil)
            let verified = try await store.users.create(
                id: "u-op", email: "op@example.com", passwordHash: Fixture.hash, role: "user", tenantID: nil,
                emailVerifiedAt: Fixture.at(0), now: Fixture.at(0))
            #expect(verified.emailVerifiedBy == .operator)
            #expect(try await store.users.find(byID: "u-op")?.emailVerifiedBy == .operator)
            #expect(try await store.users.find(byID: "u-plain")?.emailVerifiedBy == nil)
            let (made, _) = try await store.identities.createUser(
                id: "u-corp", email: "corp@example.com", emailVerifiedAt: Fixture.at(1), role: "user",
                provider: "corp", subject: "s", now: Fixture.at(1))
            #expect(made.emailVerifiedBy == .provider("corp"))
            #expect(try await store.users.find(byID: "u-corp")?.emailVerifiedBy == .provider("corp"))
            #expect(
                try await store.identities.user(provider: "corp", subject: "s")?.emailVerifiedBy == .provider("corp"))
            // An operator who verifies the email vouches for it from then on.
            try await store.users.markEmailVerified(email: "corp@example.com", now: Fixture.at(2))
            let upgraded = try await store.users.find(byID: "u-corp")
            #expect(upgraded?.emailVerifiedBy == .operator)
            #expect(upgraded?.emailVerifiedAt == Fixture.at(1))
            try await store.users.markEmailVerified(email: "plain@example.com", now: Fixture.at(3))
            #expect(try await store.users.find(byID: "u-plain")?.emailVerifiedBy == .operator)
        }
    }
}
