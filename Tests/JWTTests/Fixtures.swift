import Cryptography
import FoundationEssentials
import JWT
import StrictJSON

/// Shared test data and helpers.
enum Fixture {
    static let secret512 = Array("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".utf8)
    static let now: Int64 = 1_763_000_000

    /// A one-key set that signs: an HMAC key with `secret512`, or a new ES256/EdDSA key.
    static func keys(_ algorithm: JWTAlgorithm = .hs512, kid: String = "k1") throws -> JWTKeySet {
        guard algorithm.isSymmetric else {
            return try JWTKeySet(keys: [JWTKey.generate(kid: kid, algorithm: algorithm)], signingKID: kid)
        }
        let key = try HMACKey(kid: kid, algorithm: algorithm, secret: secret512)
        return try JWTKeySet(keys: [key], signingKID: kid)
    }

    /// The algorithms this library signs with (RS256 only verifies).
    static let signingAlgorithms = JWTAlgorithm.allCases.filter { $0 != .rs256 }

    static func options(at time: Int64 = now, leeway: Int64 = 0) -> VerificationOptions {
        VerificationOptions(now: Date(timeIntervalSince1970: Double(time)), leeway: leeway)
    }

    static var claims: JWTClaims {
        ["sub": "u1", "iat": .integer(now), "exp": .integer(now + 900)]
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    static func b64(_ text: String) -> String {
        Base64URL.encode(Array(text.utf8))
    }

    /// A token with the given raw header and payload JSON, signed correctly with `secret512` under HS512.
    static func token(header: String, payload: String, algorithm: HMAC.Algorithm = .sha512) throws -> String {
        let input = b64(header) + "." + b64(payload)
        let mac = try HMAC(algorithm: algorithm, key: secret512).authenticationCode(for: Array(input.utf8))
        return input + "." + Base64URL.encode(mac)
    }
}
