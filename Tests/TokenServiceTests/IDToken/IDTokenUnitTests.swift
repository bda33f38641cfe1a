import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import Logging
import SQLiteStore
import Store
import Testing

@testable import TokenService

@Suite struct IDTokenWiringTests {
    @Test("every verifier rejection has a metric label of the same name, and every label reads back as its reason")
    func rejectionLabels() {
        for rejection in IDTokenRejection.allCases {
            #expect(IDTokenRejectionReason.token(rejection).rawValue == rejection.rawValue)
        }
        #expect(IDTokenRejectionReason.allCases.count == IDTokenRejection.allCases.count + 3)
        #expect(IDTokenRejectionReason.userDisabled.rawValue == "user_disabled")
        #expect(IDTokenRejectionReason.nonceRequired.rawValue == "nonce_required")
        #expect(IDTokenRejectionReason.nonceNotIssued.rawValue == "nonce_not_issued")
        for reason in IDTokenRejectionReason.allCases {
            #expect(IDTokenRejectionReason(rawValue: reason.rawValue) == reason)
        }
        #expect(Set(IDTokenRejectionReason.allCases.map(\.rawValue)).count == IDTokenRejectionReason.allCases.count)
        #expect(IDTokenRejectionReason(rawValue: "not_a_reason") == nil)
    }

    @Test("identity.maxTokenAgeSeconds and every member reach the verifier's provider; a browser-only one has none")
    func settingsReachTheProvider() throws {
        let fixture = try ConfigurationFixture()
        let providers = #"""
            {"corp": {"issuers": ["https://id.corp.example"], "jwksURL": "https://id.corp.example/jwks",
                      "audiences": ["app", "web"], "nonce": "raw-or-sha256", "algorithms": ["ES256", "RS256"],
                      "tenant": "acme"},
             "github": {"preset": "github", "clientId": "gh", "clientSecret": "gh-secret",
                        "redirectURIs": ["com.example.app:/oauth"]}}
            """#
        let configuration = try fixture.resolve(environment: [
            "TOKENVEND_IDENTITY_PROVIDERS": providers, "TOKENVEND_IDENTITY_MAX_TOKEN_AGE_SECONDS": "120",
            "TOKENVEND_SERVER_PUBLIC_URL": "https://auth.example.com",
        ])
        let store = try SQLiteStore(configuration: .init(path: fixture.folder + "/store.sqlite"))
        let signIn = try IdentitySignIn(
            configuration: configuration.identity, store: store.identityStore,
            keys: ProviderKeyCache(fetcher: FakeJWKSFetcher()))
        let provider = try #require(signIn.verifiers["corp"]?.provider)
        #expect(provider.issuers == ["https://id.corp.example"])
        #expect(provider.audiences == ["app", "web"])
        #expect(provider.nonce == .rawOrSHA256)
        #expect(provider.algorithms == [.es256, .rs256])
        #expect(provider.maxTokenAge == .seconds(120))
        #expect(signIn.verifiers["github"] == nil)
        #expect(signIn.tenants == ["corp": "acme"])
    }
}
