import AuthAPI
import Foundation
import Testing

@testable import TokenService

@Suite struct MossSecretHygieneTests {
    static let allErrors: [MossError] = [
        .notConfigured, .upstreamUnavailable, .coolingDown(retryAfterSeconds: 4), .upstreamRejected(status: 401),
        .upstreamFailed(status: 500),
        .badUpstreamResponse,
    ]

    @Test("errors map to the contract's statuses and codes", arguments: allErrors)
    func errorMapping(error: MossError) {
        switch error.httpStatus {
        case 502:
            #expect(error.errorCode == "upstream_error")
            #expect(error.retryAfterSeconds == nil)
        case 503:
            #expect(error.errorCode == "unavailable")
            #expect(error.retryAfterSeconds != nil)
        default:
            Issue.record("unexpected status \(error.httpStatus)")
        }
    }

    @Test("no error text carries the project key or upstream body text", arguments: allErrors)
    func errorTexts(error: MossError) {
        for text in [error.description, error.publicMessage, "\(error)", String(reflecting: error)] {
            #expect(!text.contains(mossTestProjectKey))
            #expect(!text.contains("bad key"))
        }
    }

    @Test("the configuration's description, debug description and dump redact the key")
    func configurationRedacts() throws {
        let configuration = MossConfiguration(projectId: "proj-42", projectKey: mossTestProjectKey)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [configuration.description, String(reflecting: configuration), "\(configuration)", dumped] {
            #expect(!text.contains(mossTestProjectKey))
            #expect(text.contains("proj-42"))
        }
        let upstream = MossHTTPUpstream(configuration: configuration)
        #expect(!"\(upstream.configuration)".contains(mossTestProjectKey))
    }

    @Test("token values print redacted")
    func tokensRedacted() {
        let secret = "eyJ.secret.token"
        #expect(!"\(MossProjectToken(token: secret, expiresIn: 60))".contains(secret))
        #expect(!String(reflecting: VendedToken(token: secret, expiresIn: 60)).contains(secret))
    }

    @Test(
        "auth URLs must be https, or http to a loopback host",
        arguments: [
            ("https://service.usemoss.dev/identity/auth/token", true), ("http://127.0.0.1:9000/t", true),
            ("http://localhost/t", true), ("http://[::1]:8080/t", true), ("http://service.usemoss.dev/t", false),
            ("ftp://example.com/x", false), ("/relative/path", false), ("not a url", false), ("https://", false),
        ]
    )
    func authURLParsing(string: String, valid: Bool) throws {
        let environment = [
            "TOKENVEND_MOSS_AUTH_URL": string, "TOKENVEND_MOSS_PROJECT_ID": "p", "TOKENVEND_MOSS_PROJECT_KEY": "k",
        ]
        let fixture = try ConfigurationFixture()
        if valid {
            #expect(try fixture.resolve(environment: environment).moss?.authURL.absoluteString == string)
        } else {
            let message = fixture.error(environment: environment)?.description ?? ""
            #expect(message.hasPrefix("moss.authURL (TOKENVEND_MOSS_AUTH_URL): expected an https URL"))
        }
    }

    @Test("the default auth URL is the Moss identity endpoint")
    func defaultURL() {
        #expect(MossConfiguration.defaultAuthURL.absoluteString == "https://service.usemoss.dev/identity/auth/token")
        #expect(MossConfiguration(projectId: "p", projectKey: "k").timeout == .seconds(10))
    }
}
