#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a ``FileTokenStore``'s file holds: the tokens' members (``StoredTokens/storageJSON()``'s form) and, for a
/// session bound with DPoP, a `dpopKey` member with the key's ``DPoPKeyMaterial``. Either may be missing: a key is
/// saved before the sign-in that binds the session answers.
struct SessionFileDocument {
    var tokens: StoredTokens?
    var dpopKey: DPoPKeyMaterial?

    /// Decodes a session file; tokens are present when it has an `accessToken` member.
    /// - Throws: when it is not such a JSON object.
    init(data: Data) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let members = try decoder.decode(Members.self, from: data)
        dpopKey = members.dpopKey
        tokens = members.accessToken == nil ? nil : try StoredTokens(storageJSON: data)
    }

    init(tokens: StoredTokens?, dpopKey: DPoPKeyMaterial?) {
        self.tokens = tokens
        self.dpopKey = dpopKey
    }

    /// The file's bytes: one JSON object, keys sorted, dates as seconds since 1970.
    /// - Throws: ``TokenClientError/storage(_:)`` when it cannot be encoded.
    func encoded() throws(TokenClientError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(Flat(document: self))
        } catch {
            throw .storage("cannot encode the session file")
        }
    }

    /// The two members read to tell what the file holds.
    private struct Members: Decodable {
        var accessToken: String?
        var dpopKey: DPoPKeyMaterial?
    }

    private enum KeyMember: String, CodingKey {
        case dpopKey
    }

    /// The tokens' members and `dpopKey` in one object.
    private struct Flat: Encodable {
        let document: SessionFileDocument

        func encode(to encoder: any Encoder) throws {
            try document.tokens?.encode(to: encoder)
            var container = encoder.container(keyedBy: KeyMember.self)
            try container.encodeIfPresent(document.dpopKey, forKey: .dpopKey)
        }
    }
}
