import AuthAPI
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// Runs a sign-in (`signIn` stores the tokens in the session file) and records the server beside the file, so
    /// later commands send the tokens nowhere else: `login` and `password-reset`.
    /// - Throws: what `signIn` throws; the session file's save error; a failed record (the tokens are dropped then).
    func signIn(_ signIn: (AuthSession) async throws -> User) async throws -> User {
        try location.createFolderIfMissing()
        let storageErrorBefore = await storageError()
        let user: User
        do {
            user = try await signIn(session)
        } catch {
            // A DPoP key made for this sign-in, alone in a new session file: nothing to keep.
            let store = FileTokenStore(url: location.file)
            if (try? store.load()) == nil { try? store.clear() }
            throw error
        }
        if let error = await storageError(), error != storageErrorBefore { throw error }
        do {
            try SessionServerRecord(sessionFile: location.file).write(serverURL)
        } catch {
            // Without the record a later command could send these tokens to another server: drop them.
            try? FileTokenStore(url: location.file).clear()
            throw error
        }
        return user
    }
}
