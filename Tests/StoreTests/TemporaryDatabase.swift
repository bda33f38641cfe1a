import Foundation
import Testing

@testable import SQLiteStore
@testable import Store

/// A database file in a fresh temporary folder, removed (with its -wal and -shm) by `remove()`.
struct TemporaryDatabase {
    let folder: URL
    var path: String { folder.appendingPathComponent("test.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func open(
        readerCount: Int = 4, busyTimeout: Duration = .seconds(5), statusCacheLifetime: Duration = .seconds(1)
    ) throws -> Database {
        try Database(
            configuration: .init(
                path: path, readerCount: readerCount, busyTimeout: busyTimeout,
                statusCacheLifetime: statusCacheLifetime))
    }

    /// Creates the file at schema `version` (the first `version` migrations, as an older tokenvend left it) and
    /// runs `rows` on it, without opening a `Database` (which would migrate it further).
    func create(atVersion version: Int, rows: String) throws {
        // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let connection = try Connection(path: path, flags: 0x2 | 0x4)
        try connection.executeScript("PRAGMA foreign_keys = ON")
        try Migrator.migrate(connection, to: Array(Schema.migrations.prefix(version)))
        try connection.executeScript(rows)
        #expect(try Migrator.userVersion(connection) == version)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `body` with an open database and removes the files afterwards, whatever happens.
    static func with<T>(_ body: (Database, TemporaryDatabase) throws -> T) throws -> T {
        let temporary = try TemporaryDatabase()
        defer { temporary.remove() }
        let database = try temporary.open()
        defer { database.close() }
        return try body(database, temporary)
    }
}

enum Fixture {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)
    static let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g"

    @discardableResult
    static func user(_ database: Database, email: String = "ada@example.com") throws -> User {
        try UserStore(database: database).create(email: email, passwordHash: hash, now: epoch)
    }
}
