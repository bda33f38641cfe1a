import Foundation
import SQLiteStore
import Store
import Testing
import TokenClientTesting
import TokenService

/// `tokenvend db status|migrate` on a SQLite file left at schema version 4 by the previous release.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct DatabaseVersionFiveTests {
    @Test("a version-4 SQLite file: status says 4 found and pending, migrate applies 5 and later, status shows current")
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
        let known = StoreMaintenance.knownVersion
        #expect(before.output.contains("schema version: 4 found, \(known) known"))
        let migrated = try await DatabaseCommandTests.tokenvend(
            ["db", "migrate"], environment: environment, in: folder)
        #expect(migrated.status == 0)
        let applied = (5...known).map(String.init).joined(separator: ", ")
        #expect(migrated.output.contains("applied migration(s) \(applied); schema at version \(known)"))
        let after = try await DatabaseCommandTests.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(after.status == 0)
        #expect(after.output.contains("schema version: \(known) found, \(known) known"))
        #expect(after.output.contains("migrations pending: no"))
    }
}
