import Foundation

/// A fresh folder under the system's temporary folder, removed by ``remove()``.
struct Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appending(path: "privatefiles-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The permission bits of `path`, not following a last symbolic link.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The names in the folder, sorted.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// Runs `body` with the process umask set to `value`, then restores it. The umask is process-wide: the suites
    /// that use this are serialized and the test run uses --no-parallel.
    static func withUmask<T, E: Error>(_ value: mode_t, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = umask(value)
        defer { umask(previous) }
        return try body()
    }
}
