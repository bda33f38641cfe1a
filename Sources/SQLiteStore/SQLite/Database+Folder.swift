import PrivateFiles
import Store

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// Creates the folder holding `path` and its missing parents with mode 0700, exactly (whatever the umask);
    /// existing folders are left as they are (``PrivateFolder/create(_:privateParents:)``).
    /// - Throws: `.unavailable(.cannotOpen)` when it cannot be created.
    static func createFolder(of path: String) throws(StoreError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        do {
            try PrivateFolder.create(String(path[..<slash]))
        } catch {
            throw .unavailable(.cannotOpen)
        }
    }

    /// Creates an empty database file at `path` with mode 0600, exactly, unless a file is there already; SQLite
    /// would create it 0644 less the umask, and its `-wal`/`-shm` files copy that mode
    /// (``PrivateFile/create(at:contents:)``).
    /// - Throws: `.unavailable(.cannotOpen)` when it cannot be created.
    static func createFile(at path: String) throws(StoreError) {
        do {
            try PrivateFile.create(at: path)
        } catch {
            guard error.call == .open, error.code == EEXIST else { throw .unavailable(.cannotOpen) }
        }
    }
}
