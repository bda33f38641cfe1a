#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one JSON form every persistent ``TokenStore`` keeps (``FileTokenStore``, ``KeychainTokenStore``): dates as
/// seconds since 1970 and keys sorted, so the same tokens are the same bytes wherever they are stored.
extension StoredTokens {
    /// The tokens as stored.
    /// - Throws: ``TokenClientError/storage(_:)`` when they cannot be encoded.
    func storageJSON() throws(TokenClientError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw .storage("cannot encode tokens")
        }
    }

    /// Decodes what ``storageJSON()`` wrote.
    init(storageJSON data: Data) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        self = try decoder.decode(StoredTokens.self, from: data)
    }
}
