import StrictJSON

/// The claims of a proof whose signature held, with their JSON types checked (RFC 9449 §4.2).
struct DPoPProofClaims {
    /// The longest `jti` accepted, in Unicode scalars: 256.
    static let maximumIdentifierLength = 256

    let identifier: String
    let method: String
    let uri: String
    /// `iat`, Unix seconds; a number with a fraction is taken rounded down.
    let issuedAt: Int64
    let nonce: String?
    /// `ath` as it came (checked against the access token by the verifier).
    let accessTokenHash: JSONValue?

    /// - Throws: `.claims` when `jti` (a string of 1…256 scalars), `htm`, `htu` (strings) or `iat` (a number that
    ///   fits `Int64`) is missing or of another type; `.malformed` for a `nonce` that is not a string.
    init(_ payload: JSONObject) throws(DPoPProofFailure) {
        guard case .string(let identifier)? = payload["jti"], !identifier.isEmpty,
            identifier.unicodeScalars.count <= Self.maximumIdentifierLength
        else { throw .claims }
        guard case .string(let method)? = payload["htm"], case .string(let uri)? = payload["htu"] else {
            throw .claims
        }
        guard let issuedAt = payload["iat"]?.integerValue else { throw .claims }
        switch payload["nonce"] {
        case nil: nonce = nil
        case .string(let value)?: nonce = value
        default: throw .malformed
        }
        self.identifier = identifier
        self.method = method
        self.uri = uri
        self.issuedAt = issuedAt
        self.accessTokenHash = payload["ath"]
    }
}
