import Cryptography
import StrictJSON

extension JWK {
    /// The RFC 7638 thumbprint: base64url of SHA-256 over the required public members in lexicographic order
    /// (`crv`, `kty`, `x`, `y` for EC; `crv`, `kty`, `x` for OKP; `e`, `kty`, `n` for RSA), no whitespace.
    ///
    /// - Throws: `JWTError.invalidKey` when a required member is missing or `kty` is unknown, `.cryptoFailure`.
    public func thumbprint() throws(JWTError) -> String {
        let members: [(String, String?)]
        switch kty {
        case "EC": members = [("crv", crv), ("kty", kty), ("x", x), ("y", y)]
        case "OKP": members = [("crv", crv), ("kty", kty), ("x", x)]
        case "RSA": members = [("e", e), ("kty", kty), ("n", n)]
        default: throw .invalidKey("unknown kty")
        }
        var object: [JSONObject.Member] = []
        for (name, value) in members {
            guard let value else { throw .invalidKey("JWK has no \(name)") }
            object.append(JSONObject.Member(name: name, value: .string(value)))
        }
        do {
            return Base64URL.encode(try SHA256.hash(JSONObject(object).serialized()))
        } catch {
            throw JWTError(error)
        }
    }
}
