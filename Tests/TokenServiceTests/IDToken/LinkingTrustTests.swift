import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// Linking an identity to an existing account by its verified email (`identity.linkVerifiedEmail`) trusts only
/// the providers of `identity.trustedForLinking` (default apple and google), only an email verified by the
/// operator, an email code or such a provider, and never joins a second identity of one provider to an account.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct LinkingTrustTests {
    typealias Provider = FakeIdentityProvider

    static let linking = ["TOKENVEND_IDENTITY_LINK_VERIFIED_EMAIL": "true"]

    static func subject() -> String { "001234.\(UUID().uuidString.lowercased())" }
    static func email() -> String { "link-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    /// `POST /auth/idtoken` of `provider` for (`subject`, `email`), with a fresh server nonce.
    static func signIn(
        _ server: TestServer, provider: String = "apple", subject: String, email: String
    ) async throws -> TestResponse {
        let audience = provider == "apple" ? Provider.audience : Provider.audience(of: provider)
        return try await server.signInWithIDToken(provider: provider) {
            try Provider.token(subject: subject, email: email, nonce: $0, audience: audience)
        }
    }

    /// An account made by the operator with `email` verified (`tokenvend users add`).
    static func operatorAccount(_ server: TestServer, email: String) async throws {
        let accounts = try await AccountAdministration.open(configuration: server.configuration)
        defer { accounts.close() }
        _ = try await accounts.add(email: email, password: TestServer.password, role: "user", tenantID: nil)
    }

    @Test("a second identity of the same provider is never linked to an account that has one: 409")
    func sameProviderTwice() async throws {
        try await withIdentityProvider(environment: Self.linking) { server, _ in
            let email = Self.email()
            try await Self.operatorAccount(server, email: email)
            let first = try await TestBackend.afterOtherStoreChange {
                try await Self.signIn(server, subject: Self.subject(), email: email)
            } until: {
                $0.status == 200
            }
            #expect(first.status == 200)
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 1)
            let second = try await Self.signIn(server, subject: Self.subject(), email: email)
            #expect(second.status == 409)
            #expect(second.errorCode == "identity_conflict")
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 1)
        }
    }

    @Test("a provider outside identity.trustedForLinking never links, even to an operator-verified account")
    func untrustedProviderNeverLinks() async throws {
        try await withIdentityProvider(environment: Self.linking, otherProviders: ["corp"]) { server, _ in
            let email = Self.email()
            try await Self.operatorAccount(server, email: email)
            let response = try await Self.signIn(server, provider: "corp", subject: Self.subject(), email: email)
            #expect(response.status == 409)
            #expect(response.errorCode == "identity_conflict")
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 0)
        }
    }

    @Test("an account whose email only an untrusted provider vouched for is not linked from a trusted one")
    func untrustedVerificationNeverLinks() async throws {
        try await withIdentityProvider(environment: Self.linking, otherProviders: ["corp"]) { server, _ in
            let email = Self.email()
            let made = try await Self.signIn(server, provider: "corp", subject: Self.subject(), email: email)
            #expect(made.status == 200)
            #expect(try made.object()["created"] as? Bool == true)
            let response = try await Self.signIn(server, subject: Self.subject(), email: email)
            #expect(response.status == 409)
            #expect(response.errorCode == "identity_conflict")
        }
    }

    @Test("with both providers trusted, an account a trusted provider made is linked from the other")
    func trustedBothWays() async throws {
        var environment = Self.linking
        environment["TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING"] = #"["apple","corp"]"#
        try await withIdentityProvider(environment: environment, otherProviders: ["corp"]) { server, _ in
            let email = Self.email()
            let made = try await Self.signIn(server, provider: "corp", subject: Self.subject(), email: email)
            #expect(made.status == 200)
            let madeID = (try made.object()["user"] as? [String: Any])?["id"] as? String
            let linked = try await Self.signIn(server, subject: Self.subject(), email: email)
            #expect(linked.status == 200)
            #expect(try linked.object()["created"] as? Bool == false)
            #expect((try linked.object()["user"] as? [String: Any])?["id"] as? String == madeID)
            #expect(server.server.metrics.idTokenSignIns.value(.linked) == 1)
        }
    }

    @Test("an empty identity.trustedForLinking links nothing")
    func emptyTrustList() async throws {
        var environment = Self.linking
        environment["TOKENVEND_IDENTITY_TRUSTED_FOR_LINKING"] = "[]"
        try await withIdentityProvider(environment: environment) { server, _ in
            let email = Self.email()
            try await Self.operatorAccount(server, email: email)
            let response = try await Self.signIn(server, subject: Self.subject(), email: email)
            #expect(response.status == 409)
        }
    }
}
