import Foundation
import JWT
import StrictJSON

/// Signs Bloomreach Data hub "Stream JWTs": HS512, header exactly `{"alg":"HS512","typ":"JWT","kid":…}`,
/// payload `{"exp", "iat", "ids"}`, keyed with the UTF-8 bytes of the configured secret string, as
/// Bloomreach's own example generator does (API.md "POST /stream-token").
///
/// The key ring holds every configured `kid`; only the active one signs, so a key is rotated by adding the
/// new one, switching `stream.activeKid`, and removing the old one once its tokens have expired.
struct StreamTokenIssuer: Sendable {
    let keys: JWTKeySet
    let lifetime: Int64
    private let signer: JWTSigner

    init(keys: JWTKeySet, lifetime: Int64) {
        self.keys = keys
        self.lifetime = lifetime
        self.signer = keys.signer(header: .standard(type: "JWT"))
    }

    /// A token for `ids`, and its lifetime in seconds.
    func issue(ids: [String: String], now: Date) throws(JWTError) -> (token: String, expiresIn: Int) {
        let issuedAt = Int64(now.timeIntervalSince1970)
        let idObject = JSONObject(
            ids.sorted { $0.key < $1.key }.map { JSONObject.Member(name: $0.key, value: .string($0.value)) })
        let claims: JWTClaims = [
            "exp": .integer(issuedAt + lifetime),
            "iat": .integer(issuedAt),
            "ids": .object(idObject),
        ]
        return (try signer.sign(claims), Int(lifetime))
    }
}
