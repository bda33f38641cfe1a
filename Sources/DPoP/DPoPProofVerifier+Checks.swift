import Cryptography
import JWT
import StrictJSON

extension DPoPProofVerifier {
    /// The private JWK members (RFC 7518 §6.2.2, §6.3.2, §6.4.1): none may appear in a proof's `jwk`.
    static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// The JSON object a base64url segment holds.
    ///
    /// - Throws: `.malformed` for non-canonical base64url, bad JSON, or JSON that is not an object.
    static func object(_ bytes: [UInt8], _ range: Range<Int>) throws(DPoPProofFailure) -> JSONObject {
        guard let decoded = Base64URL.decode(bytes, range: range) else { throw .malformed }
        do {
            return try JSONParser.parseObject(decoded)
        } catch {
            throw .malformed
        }
    }

    /// The header's checks (RFC 9449 §4.3 items 4–7): no `crit`, `typ` exactly `dpop+jwt`, an allowed asymmetric
    /// `alg`, a public `jwk` of that algorithm; the key built and its thumbprint computed.
    func checkedKey(_ header: JSONObject) throws(DPoPProofFailure) -> DPoPKeyCache.Entry {
        // No extension is understood, so any `crit` makes the proof unusable (RFC 7515 §4.1.11).
        guard header["crit"] == nil else { throw .malformed }
        guard case .string(let type)? = header["typ"], UTF8Bytes.equal(type, "dpop+jwt") else { throw .type }
        guard case .string(let name)? = header["alg"], let algorithm = JWTAlgorithm(name: name),
            !algorithm.isSymmetric, algorithms.contains(algorithm)
        else { throw .algorithm }
        guard case .object(let members)? = header["jwk"] else { throw .key }
        for name in Self.privateMembers where members[name] != nil { throw .privateKey }
        do {
            let jwk = try JWK(object: members)
            // The `kid` of a proof key means nothing to the server; JWTKey needs one.
            let key = try JWTKey(jwk: jwk, kid: jwk.kid ?? "dpop", algorithm: algorithm)
            return DPoPKeyCache.Entry(key: key, thumbprint: try jwk.thumbprint(), algorithm: algorithm)
        } catch {
            throw .key
        }
    }

    /// `htu` against the request's URI, both normalised (RFC 9449 §4.3 item 9); a `htu` that cannot be normalised
    /// is a mismatch.
    static func checkURI(_ uri: String, targetURI: String) throws(DPoPProofFailure) {
        guard let target = DPoPTargetURI.normalized(targetURI) else { throw .uri }
        if UTF8Bytes.equal(uri, targetURI) { return }
        guard let normalized = DPoPTargetURI.normalized(uri), UTF8Bytes.equal(normalized, target) else {
            throw .uri
        }
    }

    /// `ath` (RFC 9449 §4.3 item 12, §7.1): with an access token, base64url(SHA-256(token)) compared in constant
    /// time; without one, absent.
    static func checkAccessTokenHash(_ hash: JSONValue?, accessToken: String?) throws(DPoPProofFailure) {
        guard let accessToken else {
            guard hash == nil else { throw .accessTokenHash }
            return
        }
        guard case .string(let presented)? = hash, let digest = try? SHA256.hash(Array(accessToken.utf8)) else {
            throw .accessTokenHash
        }
        var expected: [UInt8] = []
        Base64URL.append(digest, to: &expected)
        guard ConstantTime.equals(expected, UTF8Bytes.array(presented)) else { throw .accessTokenHash }
    }
}
