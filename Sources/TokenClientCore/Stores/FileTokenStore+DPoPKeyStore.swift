/// The session file as a ``DPoPKeyStore``: the key is the file's `dpopKey` member, beside the tokens.
extension FileTokenStore: DPoPKeyStore {
    /// The key in the file, `nil` when there is none.
    /// - Throws: ``TokenClientError/storage(_:)`` when the file exists but cannot be read.
    public func loadKey() throws -> DPoPKeyMaterial? {
        try document()?.dpopKey
    }

    /// Writes `material` into the file (mode 0600, replaced atomically), keeping the tokens there.
    /// - Throws: ``TokenClientError/storage(_:)`` when the file cannot be read or written.
    public func saveKey(_ material: DPoPKeyMaterial) throws {
        try write(SessionFileDocument(tokens: try document()?.tokens, dpopKey: material))
    }

    /// Removes the key from the file, and the file when it holds nothing else.
    /// - Throws: ``TokenClientError/storage(_:)`` when the file cannot be read, written or deleted.
    public func deleteKey() throws {
        guard let document = try? document() else { return try clear() }
        guard let tokens = document.tokens else { return try clear() }
        guard document.dpopKey != nil else { return }
        try write(SessionFileDocument(tokens: tokens, dpopKey: nil))
    }
}
