import Foundation
import HTTPServer
import Logging
import PostgresStore
import PostgresTesting
import SQLiteStore
import Store
import Testing
import TokenClientTesting
import TokenService
import TokenServiceTesting

/// `tokenvend db migrate|status|copy`, run as the built executable: on SQLite here, on PostgreSQL through
/// `scripts/with-postgres.sh` (`make test`).
@Suite(.timeLimit(.minutes(2)), .serialized)
struct DatabaseCommandTests {
    static func tokenvend(_ arguments: [String], environment: [String: String], in folder: TemporaryFolder)
        async throws -> KeyCommandTests.Run
    {
        try await KeyCommandTests.tokenvend(arguments, environment: environment, in: folder.url)
    }

    @Test("on SQLite: status says pending (exit 2), migrate applies every migration once, then status exits 0")
    func sqliteMigrate() async throws {
        let folder = try TemporaryFolder()
        let environment = ["TOKENVEND_DATABASE_PATH": folder.url.appending(path: "db/t.sqlite").path]
        let known = StoreMaintenance.knownVersion
        let before = try await Self.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(before.status == 2)
        #expect(before.output.contains("store: sqlite:\(folder.url.path)/db/t.sqlite"))
        #expect(before.output.contains("schema version: 0 found, \(known) known"))
        #expect(before.output.contains("migrations pending: yes"))
        // status changed nothing: no file was created.
        #expect(!FileManager.default.fileExists(atPath: folder.url.appending(path: "db/t.sqlite").path))
        let migrated = try await Self.tokenvend(["db", "migrate"], environment: environment, in: folder)
        #expect(migrated.status == 0)
        let list = (1...known).map(String.init).joined(separator: ", ")
        #expect(migrated.output.contains("applied migration(s) \(list); schema at version \(known)"))
        let again = try await Self.tokenvend(["db", "migrate"], environment: environment, in: folder)
        #expect(again.output.contains("schema up to date at version \(known)"))
        let after = try await Self.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(after.status == 0)
        #expect(after.output.contains("schema version: 12 found, 12 known"))  // 12: passkeys (issue 36)
        #expect(after.output.contains("migrations pending: no"))
    }

    @Test("on SQLite: status of a schema newer than this tokenvend exits 1 and says so")
    func sqliteTooNew() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appending(path: "t.sqlite").path
        let environment = ["TOKENVEND_DATABASE_PATH": path]
        _ = try await Self.tokenvend(["db", "migrate"], environment: environment, in: folder)
        let bump = Process()
        bump.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        bump.arguments = [path, "PRAGMA user_version = \(StoreMaintenance.knownVersion + 1)"]
        try bump.run()
        bump.waitUntilExit()
        let status = try await Self.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(status.status == 1)
        #expect(status.error.contains("newer than this tokenvend knows"))
    }

    @Test("db copy refuses --from without sqlite: (usage, exit 2) and a missing target or source (exit 1)")
    func copyArguments() async throws {
        let folder = try TemporaryFolder()
        let environment = ["TOKENVEND_DATABASE_PATH": folder.url.appending(path: "t.sqlite").path]
        let bare = try await Self.tokenvend(["db", "copy", "--from", "t.sqlite"], environment: environment, in: folder)
        #expect(bare.status == 2)
        let noTarget = try await Self.tokenvend(
            ["db", "copy", "--from", "sqlite:t.sqlite"], environment: environment, in: folder)
        #expect(noTarget.status == 1)
        #expect(noTarget.error.contains("no target"))
        let notPostgres = try await Self.tokenvend(
            ["db", "copy", "--from", "sqlite:t.sqlite", "--to", "mysql://root:pa55word@db/x"], environment: environment,
            in: folder)
        #expect(notPostgres.status == 1)
        #expect(!notPostgres.error.contains("pa55word"))
        let missing = try await Self.tokenvend(
            ["db", "copy", "--from", "sqlite:absent.sqlite", "--to", "postgres://u@127.0.0.1:1/x"],
            environment: environment, in: folder)
        #expect(missing.status == 1)
        #expect(missing.error.contains("no SQLite database at absent.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appending(path: "absent.sqlite").path))
        // A target on another host whose certificate would not be checked: refused before anything is read.
        let unverified = try await Self.tokenvend(
            [
                "db", "copy", "--from", "sqlite:absent.sqlite", "--to",
                "postgres://u:pa55word@10.0.0.5/x?sslmode=require",
            ],
            environment: environment, in: folder)
        #expect(unverified.status == 1)
        #expect(unverified.error.contains("names host 10.0.0.5, not this machine, with sslmode=require"))
        #expect(unverified.error.contains("database.allowUnverifiedTLS"))
        #expect(!unverified.error.contains("pa55word"))
    }

    @Test("on PostgreSQL: status pending (exit 2), migrate applies once, status 0; no output shows the password")
    func postgresMigrate() async throws {
        let schema = try PostgresTestSchema.make()
        defer { schema.remove() }
        let folder = try TemporaryFolder()
        let url = schema.url.replacingOccurrences(of: "tokenvend@", with: "tokenvend:pa55word-s3cret@")
        let urlFile = folder.url.appending(path: "database_url")
        try Data((url + "\n").utf8).write(to: urlFile)
        let environment = ["TOKENVEND_DATABASE_URL_FILE": urlFile.path, "TOKENVEND_DATABASE_PATH": ""]
        let known = StoreMaintenance.knownVersion
        let before = try await Self.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(before.status == 2)
        #expect(before.output.contains("store: postgres://tokenvend@127.0.0.1"))
        #expect(before.output.contains("schema version: 0 found, \(known) known"))
        let migrated = try await Self.tokenvend(["db", "migrate"], environment: environment, in: folder)
        #expect(migrated.status == 0)
        #expect(migrated.output.contains("schema at version \(known)"))
        let again = try await Self.tokenvend(["db", "migrate"], environment: environment, in: folder)
        #expect(again.output.contains("schema up to date at version \(known)"))
        let after = try await Self.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(after.status == 0)
        for run in [before, migrated, again, after] {
            #expect(!(run.output + run.error).contains("pa55word"))
        }
    }

    @Test("on PostgreSQL: status of an unreachable database exits 1 without showing the password")
    func postgresUnreachable() async throws {
        let folder = try TemporaryFolder()
        let environment = [
            "TOKENVEND_DATABASE_URL": "postgres://tokenvend:pa55word-s3cret@127.0.0.1:1/x",
            "TOKENVEND_DATABASE_PATH": "", "TOKENVEND_DATABASE_CONNECT_TIMEOUT_SECONDS": "1",
        ]
        let status = try await Self.tokenvend(["db", "status"], environment: environment, in: folder)
        #expect(status.status == 1)
        #expect(status.error.contains("unavailable"))
        #expect(!(status.output + status.error).contains("pa55word"))
    }

    @Test("on PostgreSQL: status and migrate name why the database is unreachable, without the password")
    func postgresUnreachableClass() async throws {
        let base = try #require(URLComponents(string: try TestPostgres.clusterURL()))
        var missing = base
        missing.password = "pa55word-s3cret"
        missing.path = "/no_such_database"
        let folder = try TemporaryFolder()
        let cases = [
            (try #require(missing.string), "database does not exist"),
            ("postgres://tokenvend:pa55word-s3cret@127.0.0.1:1/x", "connection refused"),
        ]
        for (url, reason) in cases {
            let environment = [
                "TOKENVEND_DATABASE_URL": url, "TOKENVEND_DATABASE_PATH": "",
                "TOKENVEND_DATABASE_CONNECT_TIMEOUT_SECONDS": "2",
            ]
            for command in ["status", "migrate"] {
                let run = try await Self.tokenvend(["db", command], environment: environment, in: folder)
                #expect(run.status == 1)
                #expect(run.error.contains("unavailable (unreachable: \(reason))"), "\(run.error)")
                #expect(!(run.output + run.error).contains("pa55word"))
            }
        }
    }

    @Test("db copy moves a running SQLite deployment to PostgreSQL: sessions keep rotating, idempotent, --replace")
    func copy() async throws {
        let schema = try PostgresTestSchema.make()
        defer { schema.remove() }
        let folder = try TemporaryFolder()
        let urlFile = folder.url.appending(path: "database_url")
        try Data((schema.url + "\n").utf8).write(to: urlFile)
        try await withTestServer(mode: .router) { sqlite in
            let ada = try await sqlite.signUp(email: "ada@example.com")
            _ = try await sqlite.signUp(email: "bob@example.com")
            let accounts = try await AccountAdministration.open(configuration: sqlite.configuration)
            try await accounts.setCustomerID(email: "ada@example.com", key: "crm", value: "C-42")
            accounts.close()
            // An attested App Attest key, asserted up to 3: copied with its counter.
            let key = AttestedKey(
                keyID: "a2V5", publicKey: [4] + [UInt8](repeating: 7, count: 64), counter: 0,
                appID: "ABCDE12345.com.example.app", environment: .production, createdAt: Date())
            let keys = try SQLiteStore(configuration: .init(path: sqlite.configuration.database.path))
            #expect(try await keys.integrity.insertAttestedKey(key))
            #expect(try await keys.integrity.advanceCounter(keyID: "a2V5", to: 3, now: Date()))
            // Ada's passkey, asserted up to 4, and her handle: copied (a pending challenge is not).
            let adaID = try #require(try await keys.users.find(byEmail: "ada@example.com")).id
            #expect(try await keys.passkeys.userHandle(userID: adaID, proposing: "aGFuZGxl") == "aGFuZGxl")
            let passkey = Passkey(
                credentialID: "Y3JlZA", userID: adaID, publicKey: [0xA5, 1], algorithm: -7, signCount: 0,
                backupEligible: true, backedUp: true, transports: ["internal"], name: "Phone", createdAt: Date())
            #expect(try await keys.passkeys.insertPasskey(passkey))
            #expect(
                try await keys.passkeys.recordAssertion(
                    credentialID: "Y3JlZA", signCount: 4, backedUp: true, now: Date()))
            let challenge = PasskeyChallenge(hash: "c", ceremony: .authentication, expiresAt: Date() + 300)
            #expect(try await keys.passkeys.issueChallenge(challenge, maxPending: 10, now: Date()))
            keys.close()
            let source = "sqlite:" + sqlite.configuration.database.path
            // The SQLite server still has the file open: the copy reads alongside it.
            let copied = try await Self.tokenvend(
                ["db", "copy", "--from", source, "--to-file", urlFile.path], environment: [:], in: folder)
            #expect(copied.status == 0, "\(copied.error)")
            #expect(copied.output.contains("copied 2 user(s), 1 customer id(s) and 2 live session(s)"))
            #expect(copied.output.contains("1 App Attest key(s), 1 passkey(s)"))
            let twice = try await Self.tokenvend(
                ["db", "copy", "--from", source, "--to-file", urlFile.path], environment: [:], in: folder)
            #expect(twice.status == 0)
            #expect(try schema.query("SELECT count(*) FROM users") == "2")
            #expect(try schema.query("SELECT count(*) FROM sessions") == "2")
            #expect(try schema.query("SELECT key_id, counter, app_id FROM app_attest_keys") == "a2V5|3|\(key.appID)")
            #expect(
                try schema.query(
                    "SELECT credential_id, sign_count, passkey_handle FROM passkeys JOIN users ON users.id = user_id")
                    == "Y3JlZA|4|aGFuZGxl")
            #expect(try schema.query("SELECT count(*) FROM passkey_challenges") == "0")

            // The same keys on PostgreSQL: Ada's refresh token, issued on SQLite, rotates there.
            var configuration = sqlite.configuration
            configuration.postgres.url = schema.url
            let postgres = try await TokenServer.open(configuration: configuration, logger: .init(label: "copy"))
            let refreshed = await postgres.respond(
                method: .post, target: "/auth/refresh",
                headers: ["Host": "x", "Content-Type": "application/json"],
                body: Array(#"{"refreshToken":"\#(ada.refreshToken)"}"#.utf8), peer: .init(ipv4: 0x7F00_0001))
            #expect(refreshed.response.status.code == 200)
            let other = #"{"email":"carol@example.com","password":"\#(TestServer.password)"}"#
            let registered = await postgres.respond(
                method: .post, target: "/auth/register", headers: ["Host": "x", "Content-Type": "application/json"],
                body: Array(other.utf8), peer: .init(ipv4: 0x7F00_0001))
            #expect(registered.response.status.code == 201)
            await postgres.shutdown()

            let refused = try await Self.tokenvend(
                ["db", "copy", "--from", source, "--to-file", urlFile.path], environment: [:], in: folder)
            #expect(refused.status == 1)
            #expect(refused.error.contains("give --replace"))
            let replaced = try await Self.tokenvend(
                ["db", "copy", "--from", source, "--to-file", urlFile.path, "--replace"], environment: [:], in: folder)
            #expect(replaced.status == 0)
            #expect(try schema.query("SELECT email FROM users ORDER BY email") == "ada@example.com\nbob@example.com")
        }
    }

    @Test("db copy reads the source without migrating it, and refuses a schema it cannot read")
    func copyLeavesSourceSchema() async throws {
        let schema = try PostgresTestSchema.make()
        defer { schema.remove() }
        let folder = try TemporaryFolder()
        let path = folder.url.appending(path: "t.sqlite").path
        let store = try SQLiteStore(configuration: .init(path: path))
        _ = try await store.users.create(email: "ada@example.com", passwordHash: "h")
        store.close()
        func setVersion(_ version: Int) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [path, "PRAGMA user_version = \(version)"]
            try process.run()
            process.waitUntilExit()
        }
        func version() throws -> Int { try #require(Int(try SQLiteProbe.userVersion(path))) }
        let target = PostgresStore.Configuration(url: schema.url)
        // A file one step behind (as the previous release leaves it) is copied and stays at its version.
        let behind = StoreMaintenance.knownVersion - 1
        try setVersion(behind)
        let report = try await StoreMaintenance.copy(fromSQLite: path, to: target, replacing: false)
        #expect(report.users == 1)
        #expect(try version() == behind)
        // Too old for the snapshot reader, and newer than this tokenvend: refused, file untouched.
        try setVersion(1)
        await #expect {
            _ = try await StoreMaintenance.copy(fromSQLite: path, to: target, replacing: false)
        } throws: { error in
            "\(error)".contains("schema version 1") && "\(error)".contains("tokenvend db migrate")
        }
        #expect(try version() == 1)
        try setVersion(StoreMaintenance.knownVersion + 1)
        await #expect(
            throws: StoreMaintenance.Failure.schemaTooNew(
                found: StoreMaintenance.knownVersion + 1, known: StoreMaintenance.knownVersion)
        ) {
            _ = try await StoreMaintenance.copy(fromSQLite: path, to: target, replacing: false)
        }
    }
}

/// Reads `PRAGMA user_version` with the `sqlite3` shell (not through the store, which would migrate).
enum SQLiteProbe {
    static func userVersion(_ path: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, "PRAGMA user_version"]
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
