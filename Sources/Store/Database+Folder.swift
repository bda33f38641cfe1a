#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// The mode of every folder the store creates: 0700.
    static let folderMode: mode_t = 0o700

    /// The mode of the database file the store creates: 0600. SQLite gives the `-wal` and `-shm` files it
    /// creates beside it the database file's mode.
    static let fileMode: mode_t = 0o600

    /// Creates the folder holding `path` and its missing parents with mode 0700, exactly (whatever the umask);
    /// existing folders are left as they are.
    /// - Throws: `.unavailable(.cannotOpen)` when it cannot be created.
    static func createFolder(of path: String) throws(StoreError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        guard createPrivateFolders(String(path[..<slash])) == nil else { throw .unavailable(.cannotOpen) }
    }

    /// Creates `folder` and its missing parents with mode 0700, exactly, whatever the umask (`mkdir -p -m
    /// 0700`); existing folders are left as they are. Shared by the store and the development-key file.
    /// - Returns: nil on success, else the name of the call that failed, with `errno` as it left it (ENOTDIR
    ///   when the path exists but is not a folder).
    public static func createPrivateFolders(_ folder: String) -> String? {
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") {
            prefix += component
            if unsafe mkdir(prefix, folderMode) == 0 {
                // mkdir's mode passes through the umask, which can only remove bits (umask 0700 would leave 0).
                guard unsafe chmod(prefix, folderMode) == 0 else { return "chmod" }
            } else if errno != EEXIST {
                return "mkdir"
            }
            prefix += "/"
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            errno = ENOTDIR
            return "mkdir"
        }
        return nil
    }

    /// Creates an empty database file at `path` with mode 0600, exactly, unless a file is there already; SQLite
    /// would create it 0644 less the umask, and its `-wal`/`-shm` files copy that mode.
    /// - Throws: `.unavailable(.cannotOpen)` when it cannot be created.
    static func createFile(at path: String) throws(StoreError) {
        let descriptor = unsafe open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return }
            throw .unavailable(.cannotOpen)
        }
        let changed = fchmod(descriptor, fileMode) == 0
        closeDescriptor(descriptor)
        guard changed else { throw .unavailable(.cannotOpen) }
    }
}

/// `close(2)`, outside `Database`, whose own `close()` would shadow it.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
