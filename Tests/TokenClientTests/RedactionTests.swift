import AuthAPI
import Foundation
import Testing
@testable import TokenClient
@testable import TokenClientCore

/// Token-bearing values print `<redacted>` in place of each secret, whichever way they are printed.
@Suite("Redacted secrets")
struct RedactionTests {
    static let expiry = Date(timeIntervalSince1970: 1_800_000_000)
    static let user = User(id: "u-redaction", email: "ada@example.com", role: "user")

    /// Each token-bearing type, with secrets that are easy to spot and a field that may stay visible.
    enum Subject: String, CaseIterable, Sendable {
        case storedTokens, sessionSnapshot, pendingWebSignIn, expiringToken, pendingLogout, authorizationCodeGrant
        case vendedCredential, authSession, inMemoryTokenStore

        /// The value, a fresh one each time.
        var value: Any {
            let tokens = StoredTokens(
                accessToken: "access-secret", refreshToken: "refresh-secret", accessTokenExpiresAt: expiry, user: user,
                refreshTokenExpiresAt: expiry)
            let token = ExpiringToken(token: "vended-secret", expiresAt: expiry, refreshAt: expiry)
            let base = URL(string: "https://api.example.test/") ?? URL(fileURLWithPath: "/")
            switch self {
            case .storedTokens: return tokens
            case .sessionSnapshot:
                return SessionSnapshot(
                    state: .signedIn(user), accessToken: "access-secret", accessTokenExpiresAt: expiry, user: user)
            case .pendingWebSignIn:
                return WebSignIn(baseURL: base, provider: "github", redirectURI: "com.example.app:/oauth")
                    .start(verifier: "verifier-secret", state: "state-secret")
            case .expiringToken: return token
            case .pendingLogout:
                return PendingLogout(refreshToken: "refresh-secret", accessToken: "access-secret", scope: .global)
            case .authorizationCodeGrant:
                return AuthorizationCodeGrant(
                    grantType: "authorization_code", code: "code-secret", codeVerifier: "verifier-secret",
                    redirectURI: "com.example.app:/oauth")
            case .vendedCredential: return VendedCredential(token: token, serverURL: base)
            case .authSession: return AuthSession(baseURL: base, store: InMemoryTokenStore(tokens))
            case .inMemoryTokenStore: return InMemoryTokenStore(tokens)
            }
        }

        /// False for the reference types, which print as their type name and show their fields only to `dump`.
        var describesFields: Bool { self != .authSession && self != .inMemoryTokenStore }

        /// Something `dump` shows (and the descriptions, where ``describesFields``): proof it is printed at all.
        var visible: String {
            switch self {
            case .storedTokens, .sessionSnapshot, .authSession, .inMemoryTokenStore: "u-redaction"
            case .pendingWebSignIn: "github"
            case .expiringToken, .vendedCredential: "2027-01-15"
            case .pendingLogout: "global"
            case .authorizationCodeGrant: "authorization_code"
            }
        }
    }

    /// The value as `print`, `String(describing:)`, `String(reflecting:)`, `dump` and string interpolation show it.
    private static func renderings<T>(of value: T) -> [String: String] {
        var printed = ""
        print(value, to: &printed)
        var dumped = ""
        dump(value, to: &dumped)
        return [
            "print": printed, "String(describing:)": String(describing: value),
            "String(reflecting:)": String(reflecting: value), "dump": dumped, "interpolation": "\(value)",
        ]
    }

    /// `renderings(of:)` with the static type of `subject`'s value, so conformances are found as in app code.
    private static func renderings(of subject: Subject) -> [String: String] {
        switch subject.value {
        case let value as StoredTokens: renderings(of: value)
        case let value as SessionSnapshot: renderings(of: value)
        case let value as PendingWebSignIn: renderings(of: value)
        case let value as ExpiringToken: renderings(of: value)
        case let value as PendingLogout: renderings(of: value)
        case let value as AuthorizationCodeGrant: renderings(of: value)
        case let value as VendedCredential: renderings(of: value)
        case let value as AuthSession: renderings(of: value)
        case let value as InMemoryTokenStore: renderings(of: value)
        case let value: renderings(of: value)
        }
    }

    @Test("no way of printing a token-bearing value shows a secret", arguments: Subject.allCases)
    func secretsAreRedacted(subject: Subject) {
        for (way, text) in Self.renderings(of: subject) {
            #expect(!text.contains("secret"), "\(subject) via \(way): \(text)")
        }
    }

    @Test("dump, the mirror and the descriptions say <redacted> where a secret was", arguments: Subject.allCases)
    func redactedIsShown(subject: Subject) {
        for (way, text) in Self.renderings(of: subject) where way == "dump" || subject.describesFields {
            #expect(text.contains("<redacted>"), "\(subject) via \(way): \(text)")
        }
    }

    @Test("the non-secret fields stay visible", arguments: Subject.allCases)
    func otherFieldsStayVisible(subject: Subject) {
        let dumped = Self.renderings(of: subject)["dump"] ?? ""
        #expect(dumped.contains(subject.visible), "\(subject): \(dumped)")
        guard subject.describesFields else { return }
        let described = String(describing: subject.value)
        #expect(described.contains(subject.visible), "\(subject): \(described)")
    }

    @Test("a snapshot without an access token says nil, and a web sign-in's URL keeps its code challenge")
    func absentSecretsAndPublicParts() {
        #expect(
            String(describing: SessionSnapshot(state: .signedOut))
                == "SessionSnapshot(state: TokenClientCore.SessionState.signedOut, accessToken: nil, "
                + "accessTokenExpiresAt: nil, user: nil, tokenType: nil)")
        let pending = WebSignIn(
            baseURL: URL(string: "https://api.example.test/") ?? URL(fileURLWithPath: "/"), provider: "github",
            redirectURI: "com.example.app:/oauth"
        ).start(verifier: "verifier-secret", state: "state-secret")
        let described = String(describing: pending)
        #expect(described.contains("code_challenge=\(PKCE.challenge(for: "verifier-secret"))"))
        #expect(described.contains("state=<redacted>"))
    }

    @Test("the secrets themselves are untouched: the properties and the JSON a store writes still hold them")
    func valuesAreUnchanged() throws {
        let tokens = StoredTokens(accessToken: "access-secret", refreshToken: "refresh-secret")
        #expect(tokens.accessToken == "access-secret")
        let json = String(decoding: try JSONEncoder().encode(tokens), as: UTF8.self)
        #expect(json.contains("refresh-secret"))
    }
}
