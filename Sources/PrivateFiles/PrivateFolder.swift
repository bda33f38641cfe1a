#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Folders only their owner may enter: `mkdir -p -m 0700`, with the mode exact whatever the umask.
public enum PrivateFolder {
    /// The mode of every folder this creates as private: 0700.
    static let mode: mode_t = 0o700

    /// Creates `folder` and its missing parents (`mkdir -p`). Each folder it creates gets mode 0700 exactly,
    /// whatever the umask (which can only remove bits: umask 0277 would leave 0500); existing folders, the last
    /// one included, keep their mode.
    /// - Parameters:
    ///   - folder: an absolute or relative path; repeated and trailing slashes are allowed.
    ///   - privateParents: `true` (the default) creates missing parents 0700 too; `false` creates them with
    ///     mode 0777 less the umask, as `mkdir -p` does, and only `folder` itself 0700.
    /// - Throws: ``PrivateFilesError`` naming `mkdir` or `chmod` and the path it failed on; `mkdir` with
    ///   `ENOTDIR` when `folder` exists but is not a folder.
    public static func create(_ folder: String, privateParents: Bool = true) throws(PrivateFilesError) {
        var prefix = folder.hasPrefix("/") ? "/" : ""
        let components = folder.split(separator: "/")
        for (index, component) in components.enumerated() {
            prefix += component
            let isLast = index == components.count - 1
            let folderMode = isLast || privateParents ? mode : 0o777
            if unsafe mkdir(prefix, folderMode) == 0 {
                if folderMode == mode {
                    guard unsafe chmod(prefix, mode) == 0 else { throw PrivateFilesError(.chmod, path: prefix) }
                }
            } else if errno != EEXIST {
                throw PrivateFilesError(.mkdir, path: prefix)
            }
            prefix += "/"
        }
        var info = stat()
        guard unsafe stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw PrivateFilesError(.mkdir, code: ENOTDIR, path: folder)
        }
    }
}
