import PrivateFiles

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``TokenStore`` backed by one JSON file that only its owner can read (mode 0600).
///
/// Each save writes a fresh temporary file beside the target, created with
/// `open(O_CREAT | O_EXCL | O_NOFOLLOW, 0600)` so it is never readable by others even for an instant,
/// fsyncs it, renames it over the target, then fsyncs the folder so the rename itself survives a crash
/// (``PrivateFile/writeAtomically(_:to:)``): a crash leaves either the old or the new tokens. The folder must exist.
///
/// Processes sharing the file (an app and its extension, the command line) take ``lock()``, a `flock(2)` on
/// `<file>.lock` beside it, around a refresh. The lock file stays when the tokens are cleared. On Apple platforms
/// prefer ``KeychainTokenStore``.
///
/// The store is also a ``DPoPKeyStore``: a bound session's DPoP key is kept in the same file (its `dpopKey`
/// member), saved with the tokens and removed with them by ``clear()``.
public struct FileTokenStore: TokenStore {
    /// The JSON file.
    public let url: URL
    /// How long ``lock()`` waits for another holder of the lock before it gives up, in seconds: by default 15, longer
    /// than a holder's refresh can take (``AuthSession`` tries twice within its 5 s `refreshTimeout`).
    public let lockTimeout: TimeInterval

    /// Creates a store for the file at `url` (created on the first save) whose ``lock()`` waits up to
    /// `lockTimeout` seconds.
    public init(url: URL, lockTimeout: TimeInterval = 15) {
        self.url = url
        self.lockTimeout = lockTimeout
    }

    /// Reads the file; `nil` when it does not exist.
    /// - Throws: ``TokenClientError/storage(_:)`` when it exists but cannot be read or decoded.
    public func load() throws -> StoredTokens? {
        try document()?.tokens
    }

    /// Atomically replaces the tokens in the file, mode 0600 (a DPoP key already there stays).
    /// - Throws: ``TokenClientError/storage(_:)`` when the file cannot be written.
    public func save(_ tokens: StoredTokens) throws {
        let key = (try? document())?.dpopKey
        try write(SessionFileDocument(tokens: tokens, dpopKey: key))
    }

    /// Deletes the file (the tokens and any DPoP key); succeeds when it is already gone.
    /// - Throws: ``TokenClientError/storage(_:)`` when it exists and cannot be deleted.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw TokenClientError.storage("cannot delete token file \(url.path): errno \(errno)")
        }
    }

    /// The file's content, `nil` when it does not exist.
    /// - Throws: ``TokenClientError/storage(_:)`` when it exists but cannot be read or decoded.
    func document() throws -> SessionFileDocument? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try SessionFileDocument(data: try Data(contentsOf: url))
        } catch {
            throw TokenClientError.storage("cannot read token file \(url.path): \(type(of: error))")
        }
    }

    /// Atomically replaces the file with `document`, mode 0600.
    /// - Throws: ``TokenClientError/storage(_:)`` when the file cannot be written.
    func write(_ document: SessionFileDocument) throws {
        let data = try document.encoded()
        do {
            try PrivateFile.writeAtomically(data, to: url.path)
        } catch {
            throw TokenClientError.storage(Self.reason(error, target: url.path))
        }
    }

    /// The storage error's text for a failed save: which step failed on which path, and `errno`.
    private static func reason(_ error: PrivateFilesError, target: String) -> String {
        switch error.call {
        case .open: "cannot create \(error.path): errno \(error.code)"
        case .rename: "cannot rename token file into \(target): errno \(error.code)"
        default: "cannot write \(error.path): errno \(error.code)"
        }
    }
}
