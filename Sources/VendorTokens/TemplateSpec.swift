import JWT
import StrictJSON

/// A template in expanded form, before compiling: what a written-out template and every token preset produce.
///
/// Each part carries the path its errors are reported at, so a preset's `apiSecret` is named as such, not as the
/// `keys[0].secret` it becomes.
struct TemplateSpec {
    /// One header member other than `alg`, in the order it is written.
    struct HeaderMember {
        let name: String
        let value: JSONValue
        let path: String
    }

    var algorithm: JWTAlgorithm
    var keys: [KeySpec] = []
    /// The active key; `nil` means the first key.
    var activeKid: String?
    var activeKidPath = "activeKid"
    /// Default: `{"typ": "JWT", "kid": "{{key.kid}}"}`.
    var header: [HeaderMember] = [
        HeaderMember(name: "typ", value: "JWT", path: "header.typ"),
        HeaderMember(name: "kid", value: "{{key.kid}}", path: "header.kid"),
    ]
    /// Default: 3600.
    var ttlSeconds = 3600
    /// Default: 86400.
    var maxTtlSeconds = 86400
    var jti: JTIMode = .random
    var claims: JSONObject
    /// In the template language (`parameters.<name>` objects).
    var parameters: JSONObject = [:]
    /// Body members refused with a reason.
    var refusedMembers: [String: String] = [:]
    var emailCustomerID = false
    var response: VendorResponseShape = .token

    init(algorithm: JWTAlgorithm, claims: JSONObject) {
        self.algorithm = algorithm
        self.claims = claims
    }
}

/// One key of the ring before it is loaded: a `kid` and its secret or private-key text.
struct KeySpec {
    let kid: String
    let kidPath: String
    /// The HMAC secret (HS*) or the private key, PEM or JWK (ES256, EdDSA).
    let material: String
    let materialPath: String
}
