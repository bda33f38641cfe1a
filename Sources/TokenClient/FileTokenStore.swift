public import Foundation

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
/// fsyncs it, then renames it over the target, so a crash leaves either the old or the new tokens. The
/// folder must exist. On Apple platforms prefer a Keychain-backed store.
public struct FileTokenStore: TokenStore {
    /// The JSON file.
    public let url: URL

    /// Creates a store for the file at `url` (created on the first save).
    public init(url: URL) {
        self.url = url
    }

    /// Reads the file; `nil` when it does not exist.
    /// - Throws: ``TokenClientError/storage(_:)`` when it exists but cannot be read or decoded.
    public func load() throws -> StoredTokens? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let data = try Data(contentsOf: url)
            return try Self.decoder.decode(StoredTokens.self, from: data)
        } catch {
            throw TokenClientError.storage("cannot read token file \(url.path): \(type(of: error))")
        }
    }

    /// Atomically replaces the file with `tokens`, mode 0600.
    /// - Throws: ``TokenClientError/storage(_:)`` when the file cannot be written.
    public func save(_ tokens: StoredTokens) throws {
        let data: Data
        do {
            data = try Self.encoder.encode(tokens)
        } catch {
            throw TokenClientError.storage("cannot encode tokens")
        }
        let temporaryPath = url.path + ".tmp-\(UUID().uuidString)"
        try Self.writeNewPrivateFile(atPath: temporaryPath, data: data)
        guard rename(temporaryPath, url.path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw TokenClientError.storage("cannot rename token file into \(url.path): errno \(code)")
        }
    }

    /// Deletes the file; succeeds when it is already gone.
    /// - Throws: ``TokenClientError/storage(_:)`` when it exists and cannot be deleted.
    public func clear() throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw TokenClientError.storage("cannot delete token file \(url.path): errno \(errno)")
        }
    }

    /// Creates `path` (which must not exist) with mode 0600, writes `data`, fsyncs and closes it.
    private static func writeNewPrivateFile(atPath path: String, data: Data) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TokenClientError.storage("cannot create \(path): errno \(errno)")
        }
        var failure: Int32 = 0
        // The umask can only remove bits; fchmod makes the mode exactly 0600 whatever it is.
        if fchmod(descriptor, 0o600) != 0 { failure = errno }
        if failure == 0 {
            failure = data.withUnsafeBytes { buffer -> Int32 in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    offset += written
                }
                return 0
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            unlink(path)
            throw TokenClientError.storage("cannot write \(path): errno \(failure)")
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
