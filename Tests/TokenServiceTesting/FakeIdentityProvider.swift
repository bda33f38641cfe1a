import Cryptography
public import Foundation
import HTTPServerTesting
import IdentityProvidersTesting
import JWT
public import StrictJSON
import Testing

/// An identity provider shaped like Apple for end-to-end tests: its JWK Set served on loopback by tokenvend's own
/// HTTP server (``FakeUpstream``), its issuer still `https://appleid.apple.com`, and ID tokens signed at test time
/// with an RSA 2048 key (RS256) or a P-256 key (ES256), both made once per test process.
public final class FakeIdentityProvider: Sendable {
    public static let issuer = "https://appleid.apple.com"
    public static let audience = "com.example.app"
    static let rsa: TestRSAKey = {
        do { return try TestRSAKey(kid: "apple-rsa-1") } catch { preconditionFailure("RSA key: \(error)") }
    }()
    static let ec: JWTKey = {
        do { return try JWTKey.generate(kid: "apple-ec-1", algorithm: .es256) } catch {
            preconditionFailure("EC key: \(error)")
        }
    }()

    let server: FakeUpstream

    /// Starts the key server; every answer is the JWK Set with `Cache-Control: max-age=3600`.
    public init() throws {
        let body = String(decoding: try Self.jwks(), as: UTF8.self)
        server = try FakeUpstream(
            always: .init(status: 200, body: body, headers: ["Cache-Control": "public, max-age=3600"]))
    }

    /// How many times tokenvend fetched the keys.
    public var fetches: Int { server.callCount }

    public func shutdown() async { await server.shutdown() }

    /// `TOKENVEND_IDENTITY_PROVIDERS` for an `apple` preset whose key URL is this server (or `jwksURL`), and for
    /// each of `others` a provider of that name with the same keys and issuer whose audience is
    /// ``audience(of:)`` (a second provider, for the linking rules). `tenant`, when given, is the `apple`
    /// entry's `tenant` (the others have none).
    public func environment(
        jwksURL: String? = nil, others: [String] = [], tenant: String? = nil, extra: [String: String] = [:]
    ) -> [String: String] {
        let url = jwksURL ?? server.url.absoluteString
        let tenantMember = tenant.map { #","tenant":"\#($0)""# } ?? ""
        var entries = [
            #""apple":{"preset":"apple","audiences":["\#(Self.audience)"],"jwksURL":"\#(url)","#
                + #""algorithms":["RS256","ES256"]\#(tenantMember)}"#
        ]
        for name in others {
            entries.append(
                #""\#(name)":{"preset":"apple","audiences":["\#(Self.audience(of: name))"],"jwksURL":"\#(url)","#
                    + #""algorithms":["RS256","ES256"]}"#)
        }
        let providers = "{" + entries.joined(separator: ",") + "}"
        return ["TOKENVEND_IDENTITY_PROVIDERS": providers].merging(extra) { _, new in new }
    }

    static func jwks() throws -> [UInt8] {
        guard let jwk = ec.publicJWK() else { throw TestKeyError.openSSL("no public JWK") }
        let set = try JSONValue.parse(JWKSet(keys: [jwk]).serialized())
        guard case .array(let keys)? = set.objectValue?["keys"], case .object(let ecObject)? = keys.first else {
            throw TestKeyError.openSSL("JWK Set shape")
        }
        return TestIDToken.jwks([rsa.publicJWK, ecObject])
    }

    /// The audience of the provider `name` of ``environment(jwksURL:others:tenant:extra:)``: `com.example.<name>`.
    public static func audience(of name: String) -> String { "com.example.\(name)" }

    /// The lowercase hex SHA-256 of `raw`, as Apple puts the app's nonce in the token.
    public static func hashedNonce(_ raw: String) throws -> String {
        try SHA256.hash(Array(raw.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// An Apple-shaped ID token for `subject`: issued at `issuedAt` (now), expiring `lifetime` seconds later (10
    /// minutes), the SHA-256 of `nonce` (no nonce claim when nil), and `email` with `email_verified` the string "true" (as Apple sends it;
    /// "false" when `emailVerified` is false) when given.
    public static func token(
        subject: String, email: String? = nil, emailVerified: Bool = true, nonce: String? = "raw-nonce",
        audience: String = audience, issuedAt: Date = Date(), lifetime: Int64 = 600, es256: Bool = false
    ) throws -> String {
        let claims = try claims(
            subject: subject, email: email, emailVerified: emailVerified, nonce: nonce, audience: audience,
            issuedAt: issuedAt, lifetime: lifetime)
        return es256 ? try TestIDToken.es256(claims, key: ec) : try TestIDToken.rs256(claims, key: rsa)
    }

    /// The claims of ``token(subject:email:emailVerified:nonce:audience:issuedAt:lifetime:es256:)``.
    public static func claims(
        subject: String, email: String? = nil, emailVerified: Bool = true, nonce: String? = "raw-nonce",
        audience: String = audience, issuedAt: Date = Date(), lifetime: Int64 = 600
    ) throws -> JSONObject {
        let now = Int64(issuedAt.timeIntervalSince1970)
        var claims: JSONObject = [
            "iss": .string(issuer), "aud": .string(audience), "sub": .string(subject), "iat": .integer(now),
            "exp": .integer(now + lifetime),
        ]
        if let nonce { claims["nonce"] = .string(try hashedNonce(nonce)) }
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = emailVerified ? "true" : "false"
        }
        return claims
    }

    /// A token of `claims` signed by the provider's RSA key (RS256) under `header` (default
    /// `{"alg":"RS256","kid":…,"typ":"JWT"}`): a genuine signature over whatever the provider might sign.
    public static func signed(_ claims: JSONObject, header: JSONObject? = nil) throws -> String {
        try TestIDToken.rs256(claims, key: rsa, header: header)
    }

    /// The `kid` of the provider's RSA key, as an attacker would copy it from the published set.
    public static var rsaKeyID: String { rsa.kid }

    /// The provider's RSA public key as PEM (public, as anyone can fetch it).
    public static func rsaPublicKeyPEM() throws -> String { try rsa.publicKeyPEM() }

    /// The JSON body of `POST /auth/idtoken`.
    public static func body(_ token: String, nonce: String? = "raw-nonce", provider: String = "apple") -> String {
        let nonceMember = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return #"{"provider":"\#(provider)","idToken":"\#(token)"\#(nonceMember)}"#
    }
}

/// Runs `body` with a fake provider and a server configured for it (`environment` added, `tenant` the `apple`
/// provider's), stopping both.
public func withIdentityProvider<T>(
    environment: [String: String] = [:], jwksURL: String? = nil, otherProviders: [String] = [],
    tenant: String? = nil, now: (@Sendable () -> Date)? = nil,
    _ body: (TestServer, FakeIdentityProvider) async throws -> T
) async throws -> T {
    let provider = try FakeIdentityProvider()
    do {
        let result = try await withTestServer(
            environment: provider.environment(
                jwksURL: jwksURL, others: otherProviders, tenant: tenant, extra: environment),
            now: now
        ) { server in try await body(server, provider) }
        await provider.shutdown()
        return result
    } catch {
        await provider.shutdown()
        throw error
    }
}

extension TestServer {
    /// A nonce from `POST /auth/nonce`, as an app fetches one before asking the provider for its token.
    public func serverNonce() async throws -> String {
        let response = try await request("POST", "/auth/nonce")
        #expect(response.status == 200)
        return try #require(try response.object()["nonce"] as? String)
    }

    /// `POST /auth/idtoken` the way an app signs in: a fresh nonce from the server, the token `token` makes for
    /// it (`FakeIdentityProvider.token(…, nonce: $0)`), and the nonce in the body.
    public func signInWithIDToken(
        headers: [String: String] = [:], provider: String = "apple", _ token: (String) throws -> String
    ) async throws -> TestResponse {
        let nonce = try await serverNonce()
        return try await request(
            "POST", "/auth/idtoken", headers: headers,
            json: FakeIdentityProvider.body(try token(nonce), nonce: nonce, provider: provider))
    }
}
