public import Foundation
import Testing

/// A fresh folder under the temporary directory.
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "tokenvend-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The permission bits of `item`.
    public func mode(of item: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: item.path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
