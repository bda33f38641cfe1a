import FoundationEssentials
import TokenClient

/// An ``AuthSession`` over the command-line session file, with the server it talks to and checks of the
/// file's health.
struct ClientSession {
    /// Where the session file is.
    let location: SessionFileLocation
    /// The server the session talks to.
    let serverURL: URL
    /// The session.
    let session: AuthSession

    /// The session file's last load, save or delete error, if any (the library keeps the first such error
    /// until another replaces it; compare before and after a call to see whether that call's write failed).
    func storageError() async -> TokenClientError? {
        await session.lastStorageError
    }

    /// Fails when the session file exists but could not be read: a corrupt file is not the same as being
    /// logged out.
    /// - Throws: ``TokenClientError/storage(_:)``.
    func requireReadableStore() async throws {
        if let error = await session.lastStorageError { throw error }
    }
}
