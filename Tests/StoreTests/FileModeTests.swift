import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// The database, its `-wal`/`-shm` files and its folders are private whatever the process umask. The umask is
/// process-wide: these tests set it around the one call and restore it (the suite runs with --no-parallel).
@Suite(.serialized) struct FileModeTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("a new database is 0600 with its -wal and -shm files, its new folders 0700", arguments: [0, 0o022, 0o277])
    func privateModes(umaskValue: Int) throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "tokenvend-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appending(path: "a/b/tokenvend.sqlite").path
        let previous = umask(mode_t(umaskValue))
        let opened = Result { () throws -> Database in try Database(configuration: .init(path: path)) }
        umask(previous)
        let database = try opened.get()
        defer { database.close() }
        _ = try database.write { connection throws(StoreError) in try connection.execute("CREATE TABLE probe (x)") }
        _ = try database.read { connection throws(StoreError) in try connection.queryOne("SELECT count(*) FROM probe") }

        #expect(try Self.mode(root.path) == 0o700)
        #expect(try Self.mode(root.appending(path: "a").path) == 0o700)
        #expect(try Self.mode(root.appending(path: "a/b").path) == 0o700)
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
    }
}
