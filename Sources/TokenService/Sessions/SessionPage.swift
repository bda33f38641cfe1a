import Foundation
import JWT
import Store

/// The paging query of `GET /auth/sessions?limit=&cursor=` and its opaque cursor.
///
/// `limit`: 1…100, default 50. `cursor`: the value from the previous page's `Link: <…>; rel="next"`; it is
/// base64url of `<lastUsedAt in ms>.<session id>` (where that page ended), which clients must not rely on.
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
                    throw .invalidRequest("cursor is not one this server gave out.")
                }
                after = position
            default:
                continue
            }
        }
    }

    /// Session ids are lowercase UUIDs: `-`, digits and lowercase letters.
    private static func isIDByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) || (0x61...0x7a).contains(byte)
    }

    /// The cursor that continues after `session`.
    static func cursor(after session: Session) -> String {
        let position = SessionPagePosition(after: session)
        return Base64URL.encode(Array("\(position.lastUsedMilliseconds).\(position.sessionID)".utf8))
    }

    /// The position a cursor names, or nil when it is not one `cursor(after:)` could have made.
    static func decode(_ cursor: String) -> SessionPagePosition? {
        guard !cursor.isEmpty, cursor.utf8.count <= 200, let bytes = Base64URL.decode(cursor) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count <= 19, let milliseconds = Int64(parts[0]), milliseconds >= 0,
            !parts[1].isEmpty, parts[1].utf8.count <= 64, parts[1].utf8.allSatisfy(Self.isIDByte)
        else { return nil }
        return SessionPagePosition(lastUsedMilliseconds: milliseconds, sessionID: String(parts[1]))
    }
}
