import Cryptography
import FoundationEssentials
import Store

/// The paging query of `GET /auth/sessions?limit=&cursor=` and its opaque cursor.
///
/// `limit`: 1…100, default 50. `cursor`: the value from the previous page's `Link: <…>; rel="next"`, 32 base64url
/// characters naming where that page ended (see `cursor(after:)`), which clients must not take apart.
/// Any other query parameter is ignored. An invalid limit or cursor is 400 `invalid_request`.
struct SessionPage: Sendable, Equatable {
    /// Default page size.
    static let defaultLimit = 50
    /// Largest page size.
    static let maxLimit = 100

    var limit = SessionPage.defaultLimit
    var after: SessionPagePosition?

    /// Parses the request's query (nil: the first page with the default size).
    init(query: String?) throws(ServiceError) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count == 2 ? String(parts[1]) : ""
            switch parts.first {
            case "limit":
                guard value.utf8.count <= 3, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                    let number = Int(value), (1...Self.maxLimit).contains(number)
                else { throw .invalidRequest("limit must be an integer from 1 to \(Self.maxLimit).") }
                limit = number
            case "cursor":
                guard let position = Self.decode(value) else {
                    throw .invalidRequest("cursor must be the 32-character value of a Link rel=\"next\".")
                }
                after = position
            default:
                continue
            }
        }
    }

    /// The length of every cursor: base64url of 24 bytes, no padding.
    static let cursorLength = 32

    /// The cursor that continues after `session`, or nil when its id is not a UUID (the store only makes UUIDs).
    ///
    /// Base64url of 24 bytes: `lastUsedAt` in milliseconds (8 bytes, big-endian) and the session id's 16 UUID
    /// bytes. Every 32-character base64url string therefore names a position, which is what docs/openapi.yaml
    /// states (`^[A-Za-z0-9_-]{32}$`): a client that sends a well-formed cursor is never refused.
    static func cursor(after session: Session) -> String? {
        guard let id = UUID(uuidString: session.id) else { return nil }
        let position = SessionPagePosition(after: session)
        let milliseconds = UInt64(clamping: max(0, position.lastUsedMilliseconds))
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: milliseconds >> (56 - 8 * $0)) }
        withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
        return Base64URL.encode(bytes)
    }

    /// The position a cursor names, or nil when it is not 32 base64url characters.
    static func decode(_ cursor: String) -> SessionPagePosition? {
        guard cursor.utf8.count == cursorLength, let bytes = Base64URL.decode(cursor), bytes.count == 24 else {
            return nil
        }
        let milliseconds = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var uuid = UUID().uuid
        withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes[8..<24]) }
        return SessionPagePosition(
            lastUsedMilliseconds: Int64(clamping: milliseconds), sessionID: UUID(uuid: uuid).uuidString.lowercased())
    }
}
