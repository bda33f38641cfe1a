import Cryptography
import FoundationEssentials

/// Encodes and checks refresh tokens: `(session id, counter)` under an HMAC-SHA256 of a server secret.
///
/// The GoTrue v2 design of DESIGN.md: nothing about the token is stored in plaintext (the session row
/// keeps only the live counter), and the live token can be re-derived from the row, which is what lets a
/// racing client that presents the just-rotated parent converge on the same live token. The wire form is
/// base64url(version ‖ session id (16 bytes) ‖ counter (8 bytes, big-endian) ‖ HMAC-SHA256 tag (32 bytes)),
/// 76 characters. The tag covers a domain label and every byte before it, and is compared in constant time.
struct RefreshTokenCodec: Sendable {
    /// What a valid token names.
    struct Claims: Sendable, Equatable {
        /// The session id (a UUID string, as stored).
        let sessionID: String
        /// The rotation counter the token was issued at.
        let counter: Int64
    }

    private static let version: UInt8 = 1
    private static let label = Array("tokenvend refresh token v1\0".utf8)
    private static let bodyLength = 1 + 16 + 8
    private let mac: HMAC

    /// Creates a codec keyed with `secret` (at least 32 bytes).
    /// - Throws: `CryptographyError.weakKey` when the secret is shorter than 32 bytes.
    init(secret: [UInt8]) throws(CryptographyError) {
        mac = try HMAC(algorithm: .sha256, key: secret)
    }

    /// The token for `counter` of session `sessionID`, or nil when the id is not a UUID.
    func encode(sessionID: String, counter: Int64) -> String? {
        guard let uuid = UUID(uuidString: sessionID) else { return nil }
        var body: [UInt8] = [Self.version]
        body.reserveCapacity(Self.bodyLength + 32)
        withUnsafeBytes(of: uuid.uuid) { body.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(bitPattern: counter).bigEndian) { body.append(contentsOf: $0) }
        guard let tag = try? mac.authenticationCode(for: Self.label + body) else { return nil }
        return Base64URL.encode(body + tag)
    }

    /// The session and counter a token names, or nil for anything malformed or not signed by this secret.
    func decode(_ token: String) -> Claims? {
        guard token.utf8.count == 76, let bytes = Base64URL.decode(token), bytes.count == Self.bodyLength + 32,
            bytes[0] == Self.version
        else { return nil }
        let body = Array(bytes[0..<Self.bodyLength])
        let tag = Array(bytes[Self.bodyLength...])
        guard (try? mac.isValidAuthenticationCode(tag, for: Self.label + body)) == true else { return nil }
        let uuidBytes = Array(body[1..<17])
        let uuid = UUID(
            uuid: (
                uuidBytes[0], uuidBytes[1], uuidBytes[2], uuidBytes[3], uuidBytes[4], uuidBytes[5], uuidBytes[6],
                uuidBytes[7], uuidBytes[8], uuidBytes[9], uuidBytes[10], uuidBytes[11], uuidBytes[12], uuidBytes[13],
                uuidBytes[14], uuidBytes[15]
            ))
        var counter: UInt64 = 0
        for byte in body[17..<25] { counter = counter << 8 | UInt64(byte) }
        return Claims(sessionID: uuid.uuidString.lowercased(), counter: Int64(bitPattern: counter))
    }
}
