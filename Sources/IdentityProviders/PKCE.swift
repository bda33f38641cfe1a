import Cryptography

/// Proof Key for Code Exchange (RFC 7636) with the `S256` method only.
///
/// The verifier is 43–128 characters of the unreserved set `[A-Za-z0-9-._~]` (§4.1); the challenge is
/// base64url(SHA-256(ASCII(verifier))) without padding, always 43 characters (§4.2). `plain` is never offered nor
/// accepted.
///
/// ```swift
/// let verifier = try PKCE.makeVerifier()        // 43 characters (32 random bytes)
/// let challenge = try PKCE.challenge(for: verifier)
/// PKCE.matches(verifier: verifier, challenge: challenge)  // true, compared in constant time
/// ```
public enum PKCE {
    /// The shortest verifier accepted: 43 characters (RFC 7636 §4.1).
    public static let minimumVerifierLength = 43
    /// The longest verifier accepted: 128 characters.
    public static let maximumVerifierLength = 128
    /// The length of an S256 challenge: 43 characters (32 bytes base64url).
    public static let challengeLength = 43

    /// A fresh verifier: 32 random bytes, base64url (43 characters, within the unreserved set).
    ///
    /// - Throws: `OAuthRandomError.generatorFailed` when the generator fails.
    public static func makeVerifier() throws(OAuthRandomError) -> String {
        try OAuthRandom.token()
    }

    /// The S256 challenge of `verifier`: base64url(SHA-256(verifier)), 43 characters.
    ///
    /// - Throws: `OAuthRandomError.generatorFailed` when OpenSSL fails.
    public static func challenge(for verifier: String) throws(OAuthRandomError) -> String {
        do {
            return Base64URL.encode(try SHA256.hash(Array(verifier.utf8)))
        } catch {
            throw .generatorFailed
        }
    }

    /// Whether `verifier` is 43–128 characters of `[A-Za-z0-9-._~]`.
    public static func isValidVerifier(_ verifier: String) -> Bool {
        let bytes = verifier.utf8
        return (minimumVerifierLength...maximumVerifierLength).contains(bytes.count)
            && bytes.allSatisfy(isUnreserved)
    }

    /// Whether `challenge` is 43 base64url characters (`[A-Za-z0-9_-]`) whose last one carries no stray bits (an
    /// encoding of exactly 32 bytes).
    public static func isValidChallenge(_ challenge: String) -> Bool {
        let bytes = challenge.utf8
        guard bytes.count == challengeLength, bytes.allSatisfy(isBase64URL) else { return false }
        return Base64URL.decode(challenge)?.count == 32
    }

    /// Whether the S256 challenge of `verifier` equals `challenge`, compared in constant time (the lengths are
    /// public). An invalid verifier never matches.
    public static func matches(verifier: String, challenge: String) -> Bool {
        guard isValidVerifier(verifier), let computed = try? Self.challenge(for: verifier) else { return false }
        return ConstantTime.equals(Array(computed.utf8), Array(challenge.utf8))
    }

    /// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The base64url alphabet.
    static func isBase64URL(_ byte: UInt8) -> Bool {
        isUnreserved(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "~")
    }
}
