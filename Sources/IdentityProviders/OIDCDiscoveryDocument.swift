import OutboundHTTP
import StrictJSON

/// The members of an OpenID Provider's discovery document (OpenID Connect Discovery 1.0 §3) that the browser flow
/// uses. Unknown members are ignored.
///
/// ```swift
/// let document = try OIDCDiscoveryDocument.parse(body, expectedIssuer: "https://accounts.google.com")
/// document.tokenEndpoint  // "https://oauth2.googleapis.com/token"
/// ```
public struct OIDCDiscoveryDocument: Sendable, Equatable {
    /// `issuer`: equal to the expected issuer, exactly (§4.3).
    public var issuer: String
    /// `authorization_endpoint`.
    public var authorizationEndpoint: String
    /// `token_endpoint`.
    public var tokenEndpoint: String
    /// `userinfo_endpoint`, when published.
    public var userInfoEndpoint: String?
    /// `jwks_uri`.
    public var jwksURI: String
    /// `id_token_signing_alg_values_supported`, when published.
    public var idTokenSigningAlgorithms: [String]?

    /// Creates a document.
    public init(
        issuer: String, authorizationEndpoint: String, tokenEndpoint: String, userInfoEndpoint: String? = nil,
        jwksURI: String, idTokenSigningAlgorithms: [String]? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userInfoEndpoint = userInfoEndpoint
        self.jwksURI = jwksURI
        self.idTokenSigningAlgorithms = idTokenSigningAlgorithms
    }

    /// Parses a discovery document (strict JSON, lenient members) and checks it.
    ///
    /// Endpoints must be https; plain http only to a loopback host, and only when the configured issuer or
    /// discovery URL is itself on loopback (a local provider in development): a remote document must not point the
    /// code exchange, with the client secret, at a service on this host.
    ///
    /// - Parameters:
    ///   - body: The response body.
    ///   - expectedIssuer: The issuer the configuration expects; `issuer` must equal it byte for byte.
    ///   - discoveryURL: The configured URL the document was fetched from. Default: nil (only the issuer decides).
    /// - Throws: `DiscoveryError`: `.malformed` (not a JSON object, a member of the wrong type),
    ///   `.missingMember` (`issuer`, `authorization_endpoint`, `token_endpoint` or `jwks_uri`),
    ///   `.issuerMismatch`, `.insecureEndpoint` (an endpoint not https, or http to a host not loopback, or http to
    ///   loopback from a provider that is not on loopback).
    public static func parse(
        _ body: [UInt8], expectedIssuer: String, discoveryURL: String? = nil
    ) throws(DiscoveryError) -> OIDCDiscoveryDocument {
        func isLoopback(_ text: String) -> Bool { (try? OutboundURL(text))?.isLoopback == true }
        let loopbackHTTP = isLoopback(expectedIssuer) || discoveryURL.map(isLoopback) == true
        guard let object = (try? JSONValue.parse(body))?.objectValue else { throw .malformed("not a JSON object") }
        func string(_ name: String, required: Bool) throws(DiscoveryError) -> String? {
            switch object[name] {
            case nil, .null?:
                if required { throw .missingMember(name) }
                return nil
            case .string(let value)?:
                if value.isEmpty, required { throw .missingMember(name) }
                return value.isEmpty ? nil : value
            default: throw .malformed("\(name) is not a string")
            }
        }
        func endpoint(_ name: String, required: Bool) throws(DiscoveryError) -> String? {
            guard let value = try string(name, required: required) else { return nil }
            guard let url = try? OutboundURL(value), loopbackHTTP || url.scheme == .https else {
                throw .insecureEndpoint(name)
            }
            return value
        }
        guard let issuer = try string("issuer", required: true) else { throw .missingMember("issuer") }
        guard issuer == expectedIssuer else { throw .issuerMismatch }
        guard let authorization = try endpoint("authorization_endpoint", required: true),
            let token = try endpoint("token_endpoint", required: true),
            let jwks = try endpoint("jwks_uri", required: true)
        else { throw .missingMember("token_endpoint") }
        let userInfo = try endpoint("userinfo_endpoint", required: false)
        var algorithms: [String]?
        switch object["id_token_signing_alg_values_supported"] {
        case nil, .null?: algorithms = nil
        case .array(let values)?:
            algorithms = values.compactMap(\.stringValue)
            guard algorithms?.count == values.count else {
                throw .malformed("id_token_signing_alg_values_supported is not an array of strings")
            }
        default: throw .malformed("id_token_signing_alg_values_supported is not an array")
        }
        return OIDCDiscoveryDocument(
            issuer: issuer, authorizationEndpoint: authorization, tokenEndpoint: token, userInfoEndpoint: userInfo,
            jwksURI: jwks, idTokenSigningAlgorithms: algorithms)
    }
}

/// Why a discovery document was refused. The texts name members, never values.
public enum DiscoveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a JSON object, or a member of the wrong type (the payload says which).
    case malformed(String)
    /// A required member is missing or empty; the payload is its name.
    case missingMember(String)
    /// `issuer` is not the expected issuer (OpenID Connect Discovery §4.3).
    case issuerMismatch
    /// An endpoint is not https (or http to a loopback host when the provider itself is on loopback); the payload
    /// is the member's name.
    case insecureEndpoint(String)

    /// A short sentence for the log.
    public var description: String {
        switch self {
        case .malformed(let what): "discovery document malformed: \(what)"
        case .missingMember(let name): "discovery document lacks \(name)"
        case .issuerMismatch: "discovery document issuer is not the expected issuer"
        case .insecureEndpoint(let name):
            "discovery document \(name) is not https (http only to loopback, from a provider on loopback)"
        }
    }
}
