import Cryptography
import HTTPServer
import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `GET|HEAD /.well-known/jwks.json` and `GET /.well-known/openid-configuration` (API.md "Key discovery"):
/// bodies, `ETag` and `Cache-Control` computed once at start, since the keys only change with a restart.
struct KeyDiscovery: Sendable {
    /// `{"keys":[…]}`: public keys only, current first, then standby, then previous.
    let jwksBody: [UInt8]
    /// A strong entity tag of ``jwksBody``: the first 18 bytes of its SHA-256 digest, base64url, quoted.
    let entityTag: String
    /// `public, max-age=<jwks.maxAgeSeconds>`.
    let cacheControl: String
    /// The discovery document, or `nil` (then 404) when `accessToken.issuer` is not an absolute https URL or no
    /// key is published (only HS512 keys: there is nothing a verifier could discover).
    let openIDConfiguration: [UInt8]?
    /// Why there is no discovery document, for the 404 message.
    private let missingReason: String

    /// - Parameters:
    ///   - jwks: the serialized public key set.
    ///   - algorithms: the `alg` of each published key, current first (for the discovery document).
    ///   - issuer: `accessToken.issuer`.
    ///   - maxAge: `jwks.maxAgeSeconds`.
    ///   - dpopAlgorithms: `dpop.algorithms` (`dpop_signing_alg_values_supported`, RFC 9449 §5.1).
    /// - Throws: `CryptographyError` when OpenSSL cannot compute the tag.
    init(jwks: [UInt8], algorithms: [String], issuer: String, maxAge: Int, dpopAlgorithms: [String] = []) throws {
        jwksBody = jwks
        let digest = try SHA256.hash(jwks)
        entityTag = "\"" + Base64URL.encode(Array(digest.prefix(18))) + "\""
        cacheControl = "public, max-age=\(maxAge)"
        openIDConfiguration = Self.discoveryDocument(
            issuer: issuer, algorithms: algorithms, dpopAlgorithms: dpopAlgorithms)
        missingReason =
            algorithms.isEmpty
            ? "No discovery document: no ES256 or EdDSA key is published (only HS512 keys)."
            : "No discovery document: accessToken.issuer is not an https URL."
    }

    /// The `jwks_uri` published for `issuer`: the issuer URL (without a trailing `/`) followed by
    /// `/.well-known/jwks.json`, which is where verifiers configured with the issuer look; `nil` unless `issuer`
    /// is an absolute https URL with a host and no query or fragment.
    static func jwksURI(issuer: String) -> String? {
        guard let url = URL(string: issuer), url.scheme?.lowercased() == "https", let host = url.host,
            !host.isEmpty, url.query == nil, url.fragment == nil
        else { return nil }
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/.well-known/jwks.json"
    }

    /// The document, or `nil` when `issuer` is not an absolute https URL or `algorithms` is empty.
    static func discoveryDocument(issuer: String, algorithms: [String], dpopAlgorithms: [String] = []) -> [UInt8]? {
        guard !algorithms.isEmpty, let uri = jwksURI(issuer: issuer) else { return nil }
        var seen: Set<String> = []
        let distinct = algorithms.filter { seen.insert($0).inserted }
        var members: [JSONObject.Member] = [
            .init(name: "issuer", value: .string(issuer)),
            .init(name: "jwks_uri", value: .string(uri)),
            .init(name: "id_token_signing_alg_values_supported", value: .array(distinct.map(JSONValue.string))),
        ]
        if !dpopAlgorithms.isEmpty {
            members.append(
                .init(name: "dpop_signing_alg_values_supported", value: .array(dpopAlgorithms.map(JSONValue.string))))
        }
        let document = JSONObject(members)
        return document.serialized()
    }

    /// The answer to `GET` or `HEAD /.well-known/jwks.json`: 200 with the set, or 304 without a body when
    /// `If-None-Match` matches; both with `ETag` and `Cache-Control`. A malformed `If-None-Match` is ignored.
    func jwks(_ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = ["ETag": entityTag, "Cache-Control": cacheControl]
        let condition = EntityTagCondition.evaluate(request.headers.values(for: "If-None-Match"), current: entityTag)
        if condition == .matches { return HTTPResponse(status: .notModified, headers: headers) }
        headers.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: .ok, headers: headers, body: jwksBody)
    }

    /// The answer to `GET /.well-known/openid-configuration`: the document, or 404 `not_found` saying why.
    func openID(_ request: HTTPRequest) -> HTTPResponse {
        guard let document = openIDConfiguration else {
            return .error(status: .notFound, code: "not_found", message: missingReason)
        }
        return .json(bytes: document, headers: ["Cache-Control": cacheControl])
    }
}
