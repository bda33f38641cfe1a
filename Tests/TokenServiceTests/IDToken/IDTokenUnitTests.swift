import Foundation
import IdentityProviders
import IdentityProvidersTesting
import JWT
import Logging
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

    @Test("the configuration's presets are the verifier's presets")
    func presetsAgree() throws {
        typealias Settings = TokenServiceConfiguration.IdentityProviderSettings
        let pairs: [(Settings.Preset, IdentityProvider)] = [
            (.apple, try IdentityProvider.apple(audiences: ["a"])),
            (.google, try IdentityProvider.google(audiences: ["a"])),
        ]
        for (preset, library) in pairs {
            let filled = Settings.defaults(of: preset)
            let settings = Settings(
                name: library.name, preset: preset, issuers: filled.issuers, jwksURL: filled.jwksURL,
                audiences: ["a"], nonce: filled.nonce, algorithms: filled.algorithms)
            let provider = try IdentitySignIn.provider(settings, maxTokenAgeSeconds: 600)
            #expect(provider == library, "\(preset)")
        }
    }

    @Test("identity.maxTokenAgeSeconds and every member reach the verifier's provider")
    func settingsReachTheProvider() throws {
        let settings = TokenServiceConfiguration.IdentityProviderSettings(
            name: "corp", issuers: ["https://id.corp.example"], jwksURL: "https://id.corp.example/jwks",
            audiences: ["app", "web"], nonce: .rawOrSHA256, algorithms: ["ES256", "RS256"])
        let provider = try IdentitySignIn.provider(settings, maxTokenAgeSeconds: 120)
        #expect(provider.issuers == ["https://id.corp.example"])
        #expect(provider.audiences == ["app", "web"])
        #expect(provider.nonce == .rawOrSHA256)
        #expect(provider.algorithms == [.es256, .rs256])
        #expect(provider.maxTokenAge == .seconds(120))
    }
}
