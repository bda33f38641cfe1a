import Cryptography

/// Base64url as WebAuthn's JSON forms carry it: canonical, padding tolerated (`=` to a multiple of 4 characters,
/// only as much as the length needs), nothing else.
enum PaddedBase64URL {
    /// The bytes of `text`, or nil.
    static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        var padding = 0
        while padding < 2, characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        guard padding == 0 || (characters.count + padding) % 4 == 0 else { return nil }
        return Base64URL.decode(characters, range: characters.startIndex..<characters.endIndex)
    }

    /// The bytes of `text` when they are at most `maximumBytes`, else `.malformed` naming `member` (the length is
    /// checked on the text before anything is decoded).
    static func decode(_ text: String, member: String, maximumBytes: Int) throws(WebAuthnError) -> [UInt8] {
        guard text.utf8.count <= Base64URL.encodedCount(maximumBytes) + 2 else {
            throw .malformed("\(member) over \(maximumBytes) bytes")
        }
        guard let bytes = decode(text) else { throw .malformed("\(member) is not base64url") }
        guard bytes.count <= maximumBytes else { throw .malformed("\(member) over \(maximumBytes) bytes") }
        return bytes
    }
}
