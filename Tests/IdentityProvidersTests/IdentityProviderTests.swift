import IdentityProviders
import JWT
import Testing

@Suite struct IdentityProviderTests {
    @Test("the Apple preset fills issuer, key URL, sha256 nonce and RS256")
    func applePreset() throws {
        let apple = try IdentityProvider.apple(audiences: ["com.example.app"])
        #expect(apple.name == "apple")
        #expect(apple.issuers == ["https://appleid.apple.com"])
        #expect(apple.jwksURL == "https://appleid.apple.com/auth/keys")
        #expect(apple.nonce == .sha256)
        #expect(apple.algorithms == [.rs256])
        #expect(apple.maxTokenAge == .seconds(600))
    }

    @Test("the Google preset accepts both issuer spellings, raw nonce and RS256")
    func googlePreset() throws {
        let google = try IdentityProvider.google(audiences: ["1234-ios.apps.googleusercontent.com"])
        #expect(google.issuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(google.jwksURL == "https://www.googleapis.com/oauth2/v3/certs")
        #expect(google.nonce == .raw)
        #expect(google.algorithms == [.rs256])
    }

    @Test(
        "HS* algorithms are refused when a provider is made", arguments: [JWTAlgorithm.hs256, .hs384, .hs512, .edDSA])
    func refusesAlgorithms(algorithm: JWTAlgorithm) {
        #expect(throws: IdentityProviderError.algorithmNotAllowed(algorithm.name)) {
            try IdentityProvider(
                name: "p", issuers: ["https://p"], jwksURL: "https://p/keys", audiences: ["a"],
                algorithms: [.rs256, algorithm])
        }
    }

    @Test("a provider without audiences, issuers or key URL is refused")
    func refusesEmptyMembers() {
        #expect(throws: IdentityProviderError.noAudiences) { try IdentityProvider.apple(audiences: []) }
        #expect(throws: IdentityProviderError.noAudiences) { try IdentityProvider.apple(audiences: [""]) }
        #expect(throws: IdentityProviderError.noIssuers) {
            try IdentityProvider(name: "p", issuers: [], jwksURL: "https://p/keys", audiences: ["a"])
        }
        #expect(throws: IdentityProviderError.noJWKSURL) {
            try IdentityProvider(name: "p", issuers: ["https://p"], jwksURL: "", audiences: ["a"])
        }
        #expect(throws: IdentityProviderError.nonPositiveMaxTokenAge) {
            try IdentityProvider.apple(audiences: ["a"], maxTokenAge: .zero)
        }
    }

    @Test("nonce modes read their configuration spellings")
    func nonceModeNames() {
        #expect(NonceMode(configName: "sha256") == .sha256)
        #expect(NonceMode(configName: "raw") == .raw)
        #expect(NonceMode(configName: "raw-or-sha256") == .rawOrSHA256)
        #expect(NonceMode(configName: "SHA256") == nil)
    }

    @Test("the rejection labels are the fixed metric set")
    func labels() {
        #expect(
            IDTokenRejection.allCases.map(\.label) == [
                "malformed", "too_large", "token_type", "algorithm", "missing_kid", "unknown_kid", "signature",
                "issuer", "audience", "untrusted_audience", "azp", "expired", "issued_in_future", "too_old",
                "nonce_missing", "nonce_mismatch", "nonce_unexpected",
                "replayed",
            ])
    }
}
