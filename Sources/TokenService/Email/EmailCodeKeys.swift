import Cryptography
import Store

/// The keys of the email flows, both derived from the refresh-token secret so no new secret has to be configured:
/// the HMAC-SHA256 key of stored code hashes and the XChaCha20-Poly1305 key that seals outbox bodies.
///
/// Each is `HMAC-SHA256(secret, label)` with a label of its own (`tokenvend email code v1`,
/// `tokenvend email outbox v1`), so neither can stand in for the other or for the refresh-token MAC. Rotating the
/// refresh secret invalidates the codes and the queued messages (the sender gives those up with a reason).
struct EmailCodeKeys: Sendable {
    private let codeMAC: HMAC
    private let outbox: XChaCha20Poly1305

    private static let codeLabel = Array("tokenvend email code v1".utf8)
    private static let outboxLabel = Array("tokenvend email outbox v1".utf8)
    /// The first byte of a sealed body: the format (1: XChaCha20-Poly1305, the row id as associated data).
    private static let sealVersion: UInt8 = 1

    /// Derives both keys from `secret` (the refresh-token secret).
    /// - Throws: `CryptographyError.weakKey` for a secret shorter than 32 bytes.
    init(secret: [UInt8]) throws(CryptographyError) {
        let root = try HMAC(algorithm: .sha256, key: secret)
        var codeKey = try root.authenticationCode(for: Self.codeLabel)
        var outboxKey = try root.authenticationCode(for: Self.outboxLabel)
        defer {
            SecureMemory.cleanse(&codeKey)
            SecureMemory.cleanse(&outboxKey)
        }
        codeMAC = try HMAC(algorithm: .sha256, key: codeKey)
        outbox = try XChaCha20Poly1305(key: outboxKey)
    }

    /// The stored form of `code` for `purpose` and `subject`: lowercase hex of HMAC-SHA256 over
    /// `purpose ‖ 0 ‖ subject ‖ 0 ‖ code`, so one code can never be replayed for another purpose or subject.
    func hash(code: String, purpose: EmailCodePurpose, subject: String) throws(CryptographyError) -> String {
        let message = Array(purpose.rawValue.utf8) + [0] + Array(subject.utf8) + [0] + Array(code.utf8)
        return Hex.encode(try codeMAC.authenticationCode(for: message))
    }

    /// `message` sealed for the outbox row `id` (the id is authenticated, so a body moved to another row does not
    /// open).
    func seal(_ message: [UInt8], id: String) throws(CryptographyError) -> [UInt8] {
        [Self.sealVersion] + (try outbox.seal(message, associatedData: Array(id.utf8)))
    }

    /// The message of a sealed body of row `id`, or nil when it does not open (another secret, altered, or an
    /// unknown format).
    func open(_ sealed: [UInt8], id: String) -> [UInt8]? {
        guard sealed.first == Self.sealVersion else { return nil }
        return outbox.open(Array(sealed.dropFirst()), associatedData: Array(id.utf8))
    }

    /// A new code of `length` decimal digits from the CSPRNG, each digit uniform: bytes of 250 and above are
    /// dropped (250 is the largest multiple of 10 a byte holds), so no digit is likelier than another.
    static func generateCode(length: Int) throws(CryptographyError) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(length)
        while digits.count < length {
            for byte in try SecureRandom.bytes(count: length + 8) where byte < 250 && digits.count < length {
                digits.append(UInt8(ascii: "0") + byte % 10)
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// `code` as presented, trimmed of surrounding blanks, when it is exactly `length` ASCII digits; else nil
    /// (such a code cannot be right, and is refused without a store call or a try counted).
    static func presented(_ code: String, length: Int) -> String? {
        let trimmed = code.trimmingWhitespace
        guard trimmed.utf8.count == length, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return trimmed
    }
}
