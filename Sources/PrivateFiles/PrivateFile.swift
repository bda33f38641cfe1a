#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files only their owner may read (mode 0600 from the first instant), written whole or not at all.
///
/// The one home of tokenvend's private-file writing: the development key file, the database file, the client's
/// token file and the command line's server record all go through it.
public enum PrivateFile {
    /// The mode of every file this creates: 0600.
    static let mode: mode_t = 0o600

    /// How many temporary names ``writeAtomically(_:to:)`` tries before giving up (each is 16 random hex digits,
    /// so a second try means something else created that name: a leftover, a link planted there).
    static let temporaryNameAttempts = 8

    /// Creates `path`, which must not exist, with mode 0600 exactly (whatever the umask) and writes `contents`.
    ///
    /// Opened with `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC`, so an existing file or symbolic link at `path`
    /// (dangling or not) is never followed or opened: it fails with `open` and `EEXIST`. Contents are flushed
    /// with `fsync` (an empty file has nothing to flush and is not). On any failure after the file was
    /// created, it is removed again.
    /// - Throws: ``PrivateFilesError`` naming `open`, `fchmod`, `write`, `fsync` or `close`, with `path`.
    public static func create(at path: String, contents: some Collection<UInt8> = []) throws(PrivateFilesError) {
        try create(at: path, contents: contents, sync: !contents.isEmpty)
    }

    /// ``create(at:contents:)``, fsyncing the file when `sync` is set even if it is empty.
    static func create(
        at path: String, contents: some Collection<UInt8>, sync: Bool
    ) throws(PrivateFilesError) {
        let descriptor = unsafe open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw PrivateFilesError(.open, path: path) }
        var failure = fill(descriptor, with: contents, sync: sync, path: path)
        if close(descriptor) != 0, failure == nil { failure = PrivateFilesError(.close, path: path) }
        if let failure {
            _ = unsafe unlink(path)
            throw failure
        }
    }

    /// Replaces `path` with `bytes` atomically, mode 0600: readers and a crash see either the old file or the
    /// whole new one, never a part, and never a moment in which others could read it.
    ///
    /// Writes a new temporary file beside `path` (`<path>.tmp-<16 random hex digits>`, created as
    /// ``create(at:contents:)`` does and fsynced), renames it over `path`, then fsyncs the folder so the rename
    /// survives a crash too. A folder that cannot be opened for reading, or whose file system cannot fsync a
    /// folder, is not fsynced: the new file is in place by then. On any failure before the rename the temporary
    /// file is removed, so nothing is left behind; `path` is untouched.
    /// - Throws: ``PrivateFilesError``: `open`, `fchmod`, `write`, `fsync` or `close` with the temporary path,
    ///   `rename` with `path`, or `fsync` with the folder.
    public static func writeAtomically(_ bytes: some Collection<UInt8>, to path: String) throws(PrivateFilesError) {
        try writeAtomically(bytes, to: path, temporarySuffix: randomSuffix)
    }

    /// ``writeAtomically(_:to:)`` with the temporary names' suffixes from `temporarySuffix`, for tests.
    static func writeAtomically(
        _ bytes: some Collection<UInt8>, to path: String, temporarySuffix: () -> String
    ) throws(PrivateFilesError) {
        let temporary = try createTemporary(beside: path, contents: bytes, suffix: temporarySuffix)
        guard unsafe rename(temporary, path) == 0 else {
            let failure = PrivateFilesError(.rename, path: path)
            _ = unsafe unlink(temporary)
            throw failure
        }
        try syncFolder(of: path)
    }

    /// Creates a new temporary file beside `path` holding `contents` and fsynced; tries another name when one
    /// exists. Returns its path.
    static func createTemporary(
        beside path: String, contents: some Collection<UInt8>, suffix: () -> String
    ) throws(PrivateFilesError) -> String {
        var attempt = 1
        while true {
            let temporary = path + ".tmp-" + suffix()
            do {
                try create(at: temporary, contents: contents, sync: true)
                return temporary
            } catch {
                guard error.call == .open, error.code == EEXIST, attempt < temporaryNameAttempts else { throw error }
                attempt += 1
            }
        }
    }

    /// Sets the mode of `descriptor` to exactly 0600, writes all of `contents` and fsyncs it when `sync` is set.
    /// Returns the first failure, `nil` when all went well.
    private static func fill(
        _ descriptor: Int32, with contents: some Collection<UInt8>, sync: Bool, path: String
    ) -> PrivateFilesError? {
        // open's mode passes through the umask, which can only remove bits: make it exactly 0600.
        guard fchmod(descriptor, mode) == 0 else { return PrivateFilesError(.fchmod, path: path) }
        if !contents.isEmpty {
            let written =
                unsafe contents.withContiguousStorageIfAvailable { buffer in
                    unsafe writeAll(descriptor, UnsafeRawBufferPointer(buffer))
                } ?? Array(contents).withUnsafeBytes { buffer in unsafe writeAll(descriptor, buffer) }
            guard written else { return PrivateFilesError(.write, path: path) }
        }
        guard !sync || fsync(descriptor) == 0 else { return PrivateFilesError(.fsync, path: path) }
        return nil
    }

    /// `write(2)` until all of `buffer` is written, retrying `EINTR`. `false` with `errno` set on failure.
    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let result = unsafe write(descriptor, buffer.baseAddress.map { unsafe $0 + offset }, buffer.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += result
        }
        return true
    }

    /// fsyncs the folder holding `path`, so a rename into it is durable. Skipped when the folder cannot be opened
    /// for reading or its file system does not fsync folders (`EINVAL`, `ENOTSUP`).
    private static func syncFolder(of path: String) throws(PrivateFilesError) {
        let folder = folderPath(of: path)
        let descriptor = unsafe open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { _ = close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL || errno == ENOTSUP else {
            throw PrivateFilesError(.fsync, path: folder)
        }
    }

    /// The folder part of `path`: `"."` without a slash, `"/"` for a file in the root.
    static func folderPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// 16 lowercase hex digits from the system's secure generator (`getrandom`/`arc4random`), without OpenSSL.
    static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next()
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
