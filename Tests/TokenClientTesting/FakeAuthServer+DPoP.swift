public import AuthAPI
public import Foundation
import TokenClientCore

/// What the fake knows of DPoP (RFC 9449), like the server's `dpop` section: it binds a session whose sign-in or
/// refresh carries a proof, wants `Authorization: DPoP` and a proof by the same key for a bound token, and asks for a
/// nonce when told to. Proofs are decoded, not verified: the signer's tests check signatures with joserfc, and the
/// end-to-end tests with the real server.
public struct FakeDPoPState: Sendable {
    /// Bind a session whose sign-in carries a proof (`"tokenType": "DPoP"`), like a server with DPoP.
    public var binds = false
    /// The next this many requests with a proof get `use_dpop_nonce` (400 at the token endpoints, else 401 with a
    /// `DPoP` challenge), with `DPoP-Nonce: ` ``nonce``.
    public var nonceChallenges = 0
    /// The nonce the fake hands out.
    public var nonce = "server-nonce-1"
    /// Sent as `DPoP-Nonce` on every answer when set.
    public var advertisedNonce: String?
    /// Bound access and refresh tokens, to the `x` of their key's JWK.
    public var boundAccess: [String: String] = [:]
    public var boundRefresh: [String: String] = [:]
    /// Every proof received, decoded, in order.
    public var proofs: [FakeDPoPProof] = []

    public init() {}
}

/// A proof as the fake read it.
public struct FakeDPoPProof: Sendable {
    /// The request's path.
    public var path: String
    /// The compact JWS.
    public var compact: String
    /// The header's `typ`, `alg` and `jwk` members (`x`, `y`, `kty`, `crv`).
    public var typ: String?
    public var alg: String?
    public var jwk: [String: String]
    /// The claims.
    public var jti: String?
    public var htm: String?
    public var htu: String?
    public var iat: Int?
    public var ath: String?
    public var nonce: String?

    /// The key's `x` (what the fake binds to).
    public var keyX: String { jwk["x"] ?? "" }
}

extension FakeAuthServer {
    /// The token endpoints: a bad proof there is 400, elsewhere 401.
    static let tokenEndpoints: Set<String> = [
        "/auth/login", "/auth/idtoken", "/auth/token", "/auth/refresh", "/auth/email/code/confirm",
        "/auth/password/reset/confirm", "/auth/passkeys/signup", "/auth/passkeys/authentication",
    ]

    /// The proofs received, decoded.
    public var proofs: [FakeDPoPProof] { state.withLock { $0.dpop.proofs } }

    /// The proofs sent with requests to `path`.
    public func proofs(_ path: String) -> [FakeDPoPProof] { proofs.filter { $0.path == path } }

    /// Decodes a compact JWS's header and claims (no signature check), `nil` for anything else.
    public static func decodeProof(_ compact: String, path: String) -> FakeDPoPProof? {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = jsonObject(String(parts[0])), let claims = jsonObject(String(parts[1]))
        else { return nil }
        let jwk = (header["jwk"] as? [String: Any])?.compactMapValues { $0 as? String } ?? [:]
        return FakeDPoPProof(
            path: path, compact: compact, typ: header["typ"] as? String, alg: header["alg"] as? String, jwk: jwk,
            jti: claims["jti"] as? String, htm: claims["htm"] as? String, htu: claims["htu"] as? String,
            iat: (claims["iat"] as? NSNumber)?.intValue, ath: claims["ath"] as? String,
            nonce: claims["nonce"] as? String)
    }

    private static func jsonObject(_ base64URL: String) -> [String: Any]? {
        var text = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The DPoP answer to `request` before it is routed: `use_dpop_nonce` while challenges are left, a bound
    /// session's refresh without its key. `nil` lets the request through.
    func dpopPrecheck(_ request: Recorded, proof: FakeDPoPProof?) -> (Int, Data, [String: String])? {
        let atTokenEndpoint = Self.tokenEndpoints.contains(request.path)
        return state.withLock { state in
            if proof != nil, state.dpop.nonceChallenges > 0 {
                state.dpop.nonceChallenges -= 1
                let (status, body) = Self.error(atTokenEndpoint ? 400 : 401, .useDPoPNonce)
                var headers = [HeaderName.dpopNonce: state.dpop.nonce]
                if !atTokenEndpoint {
                    headers[HeaderName.wwwAuthenticate] = #"DPoP realm="tokenvend", error="use_dpop_nonce""#
                }
                return (status, body, headers)
            }
            guard request.method == "POST", request.path == "/auth/refresh", let body = request.body,
                let refresh = try? JSONDecoder().decode(RefreshRequest.self, from: body),
                let bound = state.dpop.boundRefresh[refresh.refreshToken]
            else { return nil }
            guard let proof else {
                let (status, body) = Self.error(400, .invalidDPoPProof)
                return (status, body, [:])
            }
            guard proof.keyX == bound else {
                let (status, body) = Self.error(401, .invalidGrant)
                return (status, body, [:])
            }
            return nil
        }
    }

    /// A token endpoint's 200 answer bound to the proof's key when the fake binds (or the session was bound):
    /// `"tokenType": "DPoP"`, both tokens remembered as bound.
    func dpopBind(_ request: Recorded, proof: FakeDPoPProof?, status: Int, body: Data) -> Data {
        guard status == 200, Self.tokenEndpoints.contains(request.path), let proof,
            var answer = try? JSONDecoder().decode(TokenResponse.self, from: body), let access = answer.accessToken,
            let refresh = answer.refreshToken
        else { return body }
        return state.withLock { state in
            let presented = request.body.flatMap { try? JSONDecoder().decode(RefreshRequest.self, from: $0) }
            let wasBound = presented.map { state.dpop.boundRefresh[$0.refreshToken] != nil } ?? false
            guard state.dpop.binds || wasBound else { return body }
            state.dpop.boundAccess[access] = proof.keyX
            state.dpop.boundRefresh[refresh] = proof.keyX
            answer.tokenType = TokenResponse.dpopType
            return Self.json(answer)
        }
    }

    /// The access token of `request` when it is presented as a bound token must be: `Authorization: DPoP` with a
    /// proof by its key carrying `ath`; an unbound one only as `Bearer`.
    func presentsTokenCorrectly(_ request: Recorded, token: String, scheme: String) -> Bool {
        let bound = state.withLock { $0.dpop.boundAccess[token] }
        guard let bound else { return scheme == "Bearer" }
        guard scheme == "DPoP", let compact = request.dpop,
            let proof = Self.decodeProof(compact, path: request.path)
        else { return false }
        return proof.keyX == bound && proof.ath != nil
    }
}
