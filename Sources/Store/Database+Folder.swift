#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Database {
    /// Creates the folder holding `path` (and its parents) if missing.
    /// - Throws: `.unavailable(.cannotOpen)` when it cannot be created.
    static func createFolder(of path: String) throws(StoreError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let folder = String(path[..<slash])
        var isDirectory = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .unavailable(.cannotOpen)
        }
    }
}
