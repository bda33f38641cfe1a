import Cryptography
public import Foundation
import HTTPServer
import IdentityProvidersTesting
public import JWT
import Logging
import StrictJSON
import Synchronization

/// An OpenID Connect provider for end-to-end tests of the browser sign-in, on tokenvend's own HTTP server on
/// loopback: discovery, JWKS, an authorize endpoint that "logs in" the configured user at once and redirects back,
/// a token endpoint that checks the client's authentication and the PKCE verifier against the challenge it saw at
/// authorize time, and userinfo. Its issuer is `http://127.0.0.1:PORT`; ID tokens are ES256 with a key made at
/// start.
public final class FakeOIDCProvider: Sendable {
    /// How the token endpoint expects the client to authenticate.
    public enum ClientCheck: Sendable {
        /// HTTP Basic (or `client_secret` in the body) with this secret.
        case secret(String)
        /// An RFC 7523 assertion (`private_key_jwt`) signed by the key whose public JWK this is.
        case privateKeyJWT(publicKey: JWTKey)
    }

    /// The user the authorize endpoint logs in.
    public struct User: Sendable {
        public var subject: String
        public var email: String?
        public var emailVerified: Bool

        public init(subject: String, email: String? = nil, emailVerified: Bool = true) {
            self.subject = subject
            self.email = email
            self.emailVerified = emailVerified
        }
    }

    /// What the test can change between flows.
    public struct Behaviour: Sendable {
        /// The user logged in at authorize.
        public var user = User(subject: "fake-user-1", email: "fake-user@example.com")
        /// Redirect back with `error=<this>` instead of a code.
        public var authorizeError: String?
        /// Answer the token endpoint with this status and no tokens (503: the provider is down).
        public var tokenEndpointStatus: Int?
        /// Put this nonce in the ID token instead of the one from the authorize request.
        public var nonceOverride: String?
        /// Send no ID token: the client must read the user from userinfo (GitHub's way).
        public var withoutIDToken = false

        public init() {}
    }

    /// A token request as the provider saw it.
    public struct TokenRequest: Sendable {
        public var form: [String: String]
        public var authorization: String?
    }

    struct Grant: Sendable {
        var clientID: String
        var redirectURI: String
        var challenge: String
        var nonce: String?
        var user: User
    }

    struct State: Sendable {
        var behaviour = Behaviour()
        var grants: [String: Grant] = [:]
        var accessTokens: [String: User] = [:]
        var tokenRequests: [TokenRequest] = []
        var authorizeQueries: [[String: String]] = []
        var failures: [String] = []
        var counter = 0
    }

    /// The port.
    public let port: Int
    /// The OAuth client id tokenvend must use.
    public let clientID: String
    let client: ClientCheck
    let key: JWTKey
    let state = Mutex(State())
    private let server: HTTPServer

    /// Starts the provider on loopback.
    public init(clientID: String = "tokenvend-client", client: ClientCheck = .secret("fake-client-secret")) throws {
        self.clientID = clientID
        self.client = client
        key = try JWTKey.generate(kid: "fake-oidc-1", algorithm: .es256)
        var configuration = HTTPServer.Configuration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.eventLoopCount = 1
        var router = Router()
        let box = ProviderBox()
        router.get("/.well-known/openid-configuration") { _, _ in box.provider?.discovery() ?? .init(status: .notFound)
        }
        router.get("/jwks") { _, _ in box.provider?.jwks() ?? .init(status: .notFound) }
        router.get("/authorize") { request, _ in box.provider?.authorize(request) ?? .init(status: .notFound) }
        router.post("/token") { request, _ in box.provider?.token(request) ?? .init(status: .notFound) }
        router.get("/userinfo") { request, _ in box.provider?.userInfo(request) ?? .init(status: .notFound) }
        server = HTTPServer(
            configuration: configuration, router: router,
            logger: Logger(label: "fake-oidc") { _ in SwiftLogNoOpLogHandler() })
        port = try server.start()
        box.provider = self
    }

    public func shutdown() async { _ = await server.shutdown(gracePeriod: .zero) }

    /// `http://127.0.0.1:PORT`.
    public var issuer: String { "http://127.0.0.1:\(port)" }
    /// The discovery document's URL.
    public var discoveryURL: String { issuer + "/.well-known/openid-configuration" }

    /// Changes what the next flows see.
    public func update(_ change: (inout Behaviour) -> Void) {
        state.withLock { change(&$0.behaviour) }
    }

    /// Every token request so far.
    public var tokenRequests: [TokenRequest] { state.withLock { $0.tokenRequests } }
    /// The query of every authorize request so far.
    public var authorizeQueries: [[String: String]] { state.withLock { $0.authorizeQueries } }
    /// Why the token endpoint refused requests (client authentication, PKCE, redirect URI), in order.
    public var failures: [String] { state.withLock { $0.failures } }

    /// The ID token signing key's public JWK Set.
    func jwks() -> HTTPResponse {
        guard let jwk = key.publicJWK() else { return .init(status: .internalServerError) }
        return .json(bytes: JWKSet(keys: [jwk]).serialized(), headers: ["Cache-Control": "max-age=3600"])
    }

    func discovery() -> HTTPResponse {
        let document: JSONObject = [
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"), "userinfo_endpoint": .string(issuer + "/userinfo"),
            "jwks_uri": .string(issuer + "/jwks"), "id_token_signing_alg_values_supported": .array([.string("ES256")]),
            "response_types_supported": .array([.string("code")]),
        ]
        return .json(bytes: JSONValue.object(document).serialized(), headers: ["Cache-Control": "max-age=3600"])
    }

    /// Logs the configured user in at once and redirects to `redirect_uri` with a code (or the configured error).
    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let query = Self.form(request.query ?? "")
        let behaviour = state.withLock { state in
            state.authorizeQueries.append(query)
            return state.behaviour
        }
        guard query["response_type"] == "code", query["client_id"] == clientID,
            query["code_challenge_method"] == "S256", let challenge = query["code_challenge"],
            let redirect = query["redirect_uri"], let providerState = query["state"]
        else { return .error(status: .badRequest, code: "invalid_request", message: "bad authorize request") }
        if let error = behaviour.authorizeError {
            return Self.found(redirect + "?error=\(error)&state=\(Self.encode(providerState))")
        }
        let code = state.withLock { state in
            state.counter += 1
            let code = "fake-code-\(state.counter)-" + UUID().uuidString
            state.grants[code] = Grant(
                clientID: clientID, redirectURI: redirect, challenge: challenge, nonce: query["nonce"],
                user: behaviour.user)
            return code
        }
        return Self.found(redirect + "?code=\(Self.encode(code))&state=\(Self.encode(providerState))")
    }

    func token(_ request: HTTPRequest) -> HTTPResponse {
        let form = Self.form(String(decoding: request.body, as: UTF8.self))
        let authorization = request.headers["Authorization"]
        let behaviour = state.withLock { state in
            state.tokenRequests.append(TokenRequest(form: form, authorization: authorization))
            return state.behaviour
        }
        if let status = behaviour.tokenEndpointStatus {
            return .error(status: HTTPStatus(code: status), code: "temporarily_unavailable", message: "down")
        }
        let refuse = { (reason: String, error: String) -> HTTPResponse in
            self.state.withLock { $0.failures.append(reason) }
            return .json(
                status: error == "invalid_client" ? .unauthorized : .badRequest,
                bytes: Array(#"{"error":"\#(error)"}"#.utf8))
        }
        if let failure = checkClient(form: form, authorization: authorization) {
            return refuse(failure, "invalid_client")
        }
        guard form["grant_type"] == "authorization_code", let code = form["code"],
            let grant = state.withLock({ $0.grants.removeValue(forKey: code) })
        else { return refuse("unknown code", "invalid_grant") }
        guard form["redirect_uri"] == grant.redirectURI else { return refuse("redirect_uri", "invalid_grant") }
        guard let verifier = form["code_verifier"],
            let digest = try? SHA256.hash(Array(verifier.utf8)), Base64URL.encode(digest) == grant.challenge
        else { return refuse("code_verifier", "invalid_grant") }
        let accessToken = "fake-access-" + UUID().uuidString
        state.withLock { $0.accessTokens[accessToken] = grant.user }
        var body: JSONObject = [
            "access_token": .string(accessToken), "token_type": .string("Bearer"), "expires_in": .integer(3600),
        ]
        if !behaviour.withoutIDToken {
            let now = Int64(Date().timeIntervalSince1970)
            var claims: JSONObject = [
                "iss": .string(issuer), "aud": .string(grant.clientID), "sub": .string(grant.user.subject),
                "iat": .integer(now), "exp": .integer(now + 600),
            ]
            if let nonce = behaviour.nonceOverride ?? grant.nonce { claims["nonce"] = .string(nonce) }
            if let email = grant.user.email {
                claims["email"] = .string(email)
                claims["email_verified"] = .bool(grant.user.emailVerified)
            }
            guard let idToken = try? TestIDToken.es256(claims, key: key) else {
                return .init(status: .internalServerError)
            }
            body["id_token"] = .string(idToken)
        }
        return .json(bytes: JSONValue.object(body).serialized(), headers: ["Cache-Control": "no-store"])
    }

    func userInfo(_ request: HTTPRequest) -> HTTPResponse {
        guard let header = request.headers["Authorization"], header.hasPrefix("Bearer "),
            let user = state.withLock({ $0.accessTokens[String(header.dropFirst(7))] })
        else { return .error(status: .unauthorized, code: "invalid_token", message: "no token") }
        var body: JSONObject = ["sub": .string(user.subject)]
        if let email = user.email {
            body["email"] = .string(email)
            body["email_verified"] = .bool(user.emailVerified)
        }
        return .json(bytes: JSONValue.object(body).serialized())
    }

    /// nil when the client authenticated as `client` demands; else why not.
    func checkClient(form: [String: String], authorization: String?) -> String? {
        switch client {
        case .secret(let secret):
            if let authorization, authorization.hasPrefix("Basic ") {
                guard let decoded = Data(base64Encoded: String(authorization.dropFirst(6))),
                    String(decoding: decoded, as: UTF8.self) == "\(Self.encode(clientID)):\(Self.encode(secret))"
                else { return "basic credentials" }
                return form["client_secret"] == nil ? nil : "two client authentications"
            }
            guard form["client_id"] == clientID, form["client_secret"] == secret else { return "client_secret" }
            return nil
        case .privateKeyJWT(let publicKey):
            guard authorization == nil, form["client_secret"] == nil,
                form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                let assertion = form["client_assertion"]
            else { return "no client assertion" }
            do {
                let keys = try JWTKeySet(keys: [publicKey], signingKID: nil)
                var options = VerificationOptions()
                options.requireKeyID = false
                options.issuer = clientID
                options.audience = issuer + "/token"
                let claims = try keys.verify(assertion, options: options)
                guard claims.subject == clientID, claims.id?.isEmpty == false else { return "assertion claims" }
                return nil
            } catch {
                return "assertion: \(error)"
            }
        }
    }

    static func found(_ location: String) -> HTTPResponse {
        HTTPResponse(status: HTTPStatus(code: 302), headers: ["Location": location])
    }

    /// Decodes `a=b&c=d` (percent and `+`); a repeated name keeps the last value.
    public static func form(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            values[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return values
    }

    /// Percent-encodes everything but the unreserved characters.
    public static func encode(_ value: String) -> String {
        value.addingPercentEncoding(
            withAllowedCharacters: .init(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? value
    }

    /// Lets the router's handlers reach the provider made after them (held until the process ends).
    final class ProviderBox: Sendable {
        private let stored = Mutex<FakeOIDCProvider?>(nil)
        var provider: FakeOIDCProvider? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }
}
