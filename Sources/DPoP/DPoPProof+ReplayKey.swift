import Cryptography

extension DPoPProof {
    /// `replayKey`'s digest input: UTF-8 of `thumbprint`, `.`, `jti`.
    static func replayKey(thumbprint: String, identifier: String) -> String {
        var input = Array(thumbprint.utf8)
        input.append(UInt8(ascii: "."))
        input.append(contentsOf: identifier.utf8)
        // EVP_Digest fails only when OpenSSL cannot allocate; the hex of the input itself is then still one key
        // per (thumbprint, jti), only longer.
        guard let digest = try? SHA256.hash(input) else { return Hex.encode(input) }
        return Hex.encode(digest)
    }
}
