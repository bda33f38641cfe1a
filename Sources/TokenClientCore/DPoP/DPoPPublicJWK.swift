/// The public members of a DPoP key's JWK: `kty`, `crv`, `x` and (P-256) `y`, base64url without padding.
public struct DPoPPublicJWK: Sendable, Hashable, Codable {
    /// `EC` or `OKP`.
    public var kty: String
    /// `P-256` or `Ed25519`.
    public var crv: String
    /// The x coordinate (P-256) or the public key (Ed25519).
    public var x: String
    /// The y coordinate (P-256); `nil` for Ed25519.
    public var y: String?

    /// Creates a JWK from its members.
    public init(kty: String, crv: String, x: String, y: String? = nil) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
    }

    /// A P-256 public key from its 32-byte big-endian coordinates.
    public static func p256(x: [UInt8], y: [UInt8]) -> DPoPPublicJWK {
        DPoPPublicJWK(kty: "EC", crv: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y))
    }

    /// An Ed25519 public key from its 32 bytes.
    public static func ed25519(_ publicKey: [UInt8]) -> DPoPPublicJWK {
        DPoPPublicJWK(kty: "OKP", crv: "Ed25519", x: Base64URL.encode(publicKey))
    }

    /// The RFC 7638 thumbprint: base64url(SHA-256) of the required members in lexicographic order, without
    /// whitespace (`{"crv","kty","x","y"}` for EC, `{"crv","kty","x"}` for OKP). The members hold only base64url and
    /// fixed names, so no escaping is needed.
    public var thumbprint: String {
        var json = #"{"crv":"\#(crv)","kty":"\#(kty)","x":"\#(x)""#
        if let y { json += #","y":"\#(y)""# }
        json += "}"
        return Base64URL.encode(PKCE.sha256(Array(json.utf8)))
    }
}
