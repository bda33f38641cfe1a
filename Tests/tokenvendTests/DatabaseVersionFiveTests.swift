import Foundation
import Store
import Testing
import TokenClientTesting

/// `tokenvend db status|migrate` on a SQLite file left at schema version 4 by the previous release.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct DatabaseVersionFiveTests {
    @Test("a version-4 SQLite file: status says 4 found and pending, migrate applies 5, status shows 5")
    func sqliteFourToFive() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appending(path: "t.sqlite").path
        // What tokenvend at version 4 leaves: its four steps, then the version, through the sqlite3 shell.
        let script = Schema.migrations.prefix(4).map(\.sqlite).joined(separator: "\n") + "\nPRAGMA user_version = 4;"
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path, script]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(try SQLiteProbe.userVersion(path) == "4")
        let environment = ["TOKENVEND_DATABASE_PATH": path]
        let before = try await DatabaseCommandTests.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(before.status == 2)
        #expect(before.output.contains("schema version: 4 found, 5 known"))
        let migrated = try await DatabaseCommandTests.tokenvend(
            ["db", "migrate"], environment: environment, in: folder)
        #expect(migrated.status == 0)
        #expect(migrated.output.contains("applied migration(s) 5; schema at version 5"))
        let after = try await DatabaseCommandTests.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(after.status == 0)
        #expect(after.output.contains("schema version: 5 found, 5 known"))
        #expect(after.output.contains("migrations pending: no"))
    }
}
