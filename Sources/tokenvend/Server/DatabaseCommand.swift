import ArgumentParser
import FoundationEssentials
import PostgresStore
import Store
import TokenService
import UnicodeText

/// `tokenvend db migrate|status|copy`: the schema of the configured store, and moving a SQLite deployment to
/// PostgreSQL. Output names stores without passwords.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Migrate, inspect or copy the store (SQLite or PostgreSQL).",
        subcommands: [Migrate.self, Status.self, Copy.self]
    )

    /// One line on stderr and exit 1.
    static func fail(_ command: String, _ failure: StoreMaintenance.Failure) -> ExitCode {
        TerminalIO.writeStandardError("tokenvend db \(command): \(failure.description)")
        return .failure
    }
}

extension DatabaseCommand {
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Apply pending schema migrations to the configured store.",
            discussion: """
                PostgreSQL (database.url): each migration is applied once under an advisory lock, so this is safe \
                while instances start or run. SQLite (database.path): the file is created when missing. Prints \
                what was applied. Exit status: 0, or 1 on error.
                """)
        @OptionGroup var options: ServerConfigurationOptions

        func run() async throws {
            let configuration = try options.load(prepareStorage: false).configuration
            let migration: StoreMaintenance.Migration
            do {
                migration = try await StoreMaintenance.migrate(configuration)
            } catch {
                throw DatabaseCommand.fail("migrate", error)
            }
            if migration.applied.isEmpty {
                print("\(migration.displayName): schema up to date at version \(migration.version.found)")
            } else {
                let list = migration.applied.map(String.init).joined(separator: ", ")
                print(
                    "\(migration.displayName): applied migration(s) \(list); schema at version \(migration.version.found)"
                )
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the configured store and whether migrations are pending.",
            discussion: """
                Changes nothing. Exit status: 0 when the schema is current, 2 when migrations are pending (run \
                tokenvend db migrate), 1 on error (unreachable, or a schema newer than this tokenvend).
                """)
        @OptionGroup var options: ServerConfigurationOptions

        func run() async throws {
            let configuration = try options.load(prepareStorage: false).configuration
            let status: StoreMaintenance.Status
            do {
                status = try await StoreMaintenance.status(configuration)
            } catch {
                throw DatabaseCommand.fail("status", error)
            }
            print("store: \(status.displayName)")
            print("schema version: \(status.version.found) found, \(status.version.known) known")
            guard status.version.found <= status.version.known else {
                throw DatabaseCommand.fail(
                    "status", .schemaTooNew(found: status.version.found, known: status.version.known))
            }
            print("migrations pending: \(status.pending ? "yes (run tokenvend db migrate)" : "no")")
            if status.pending { throw ExitCode(2) }
        }
    }

    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy a SQLite deployment's users and live sessions to PostgreSQL.",
            discussion: """
                Reads one consistent snapshot of the SQLite file (safe while a server uses it: one read \
                transaction, no write lock), migrates the target and writes users, customer ids and live sessions \
                with their refresh counters, so nobody is logged out, the attested App Attest keys and the passkeys \
                with their counters (integrity and passkey challenges are transient and not copied). Idempotent: \
                running it again keeps the \
                stronger state (revocations and disabled users stay, counters are never lowered); without \
                --replace, target sessions the source no longer holds are left. Copying again after cutover is \
                unsafe (changes made on PostgreSQL can be overwritten): stop writes on SQLite before the last copy. \
                A target holding other users is refused unless --replace. The target is --to, --to-file, or \
                else database.url / database.urlFile of the configuration; prefer a file, so that no password \
                appears on a command line. Exit status: 0, or 1 on error.
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @Option(help: ArgumentHelp("The SQLite database to copy, as sqlite:PATH.", valueName: "sqlite:path"))
        var from: String
        @Option(help: ArgumentHelp("The PostgreSQL URL to copy into (postgres://…).", valueName: "url"))
        var to: String?
        @Option(help: ArgumentHelp("A file holding the PostgreSQL URL.", valueName: "path"))
        var toFile: String?
        @Flag(help: "Replace the target's users, customer ids, sessions, passkeys and App Attest keys.")
        var replace = false

        func validate() throws {
            guard from.hasPrefix("sqlite:"), from.count > "sqlite:".count else {
                throw ValidationError("--from must be sqlite:PATH")
            }
            if to != nil, toFile != nil { throw ValidationError("give either --to or --to-file, not both") }
        }

        func run() async throws {
            let configuration = try options.load(prepareStorage: false).configuration
            let target: PostgresStore.Configuration
            do {
                target = try targetConfiguration(configuration)
            } catch {
                throw DatabaseCommand.fail("copy", error)
            }
            let path = String(from.dropFirst("sqlite:".count))
            let report: CopyReport
            do {
                report = try await StoreMaintenance.copy(fromSQLite: path, to: target, replacing: replace)
            } catch {
                throw DatabaseCommand.fail("copy", error)
            }
            let name = (try? PostgresURL(target.url).redacted) ?? "postgres"
            print(
                "copied \(report.users) user(s), \(report.customerIDs) customer id(s) and \(report.sessions) live "
                    + "session(s) from sqlite:\(path) to \(name); \(report.identities) identity link(s), "
                    + "\(report.deletedAccounts) deleted-account record(s), \(report.attestedKeys) App Attest key(s), "
                    + "\(report.passkeys) passkey(s)")
        }

        /// The target from `--to`, `--to-file` or the configuration, with the configuration's pool settings.
        private func targetConfiguration(
            _ configuration: TokenServiceConfiguration
        ) throws(StoreMaintenance.Failure) -> PostgresStore.Configuration {
            var settings = configuration.postgres
            if let to {
                settings.url = to
            } else if let toFile {
                guard let data = FileManager.default.contents(atPath: toFile),
                    let text = String(data: data, encoding: .utf8)
                else { throw .usage("cannot read --to-file \(toFile)") }
                settings.url = String(UnicodeText.trimmingWhitespaceAndNewlines(text))
            }
            let url = settings.url
            guard !url.isEmpty else {
                throw .usage("no target: give --to-file PATH (or --to URL), or configure database.url")
            }
            let parsed: PostgresURL
            do {
                parsed = try PostgresURL(url)
            } catch {
                throw .usage("the target is not a PostgreSQL URL (postgres://user@host:port/database)")
            }
            if !settings.allowUnverifiedTLS,
                let reason = parsed.unverifiedTLSReason(environment: ProcessInfo.processInfo.environment)
            {
                throw .usage("the target \(reason)")
            }
            var configuration = configuration
            configuration.postgres = settings
            guard let target = StoreOpener.postgresConfiguration(configuration) else {
                throw .usage("no target PostgreSQL URL")
            }
            return target
        }
    }
}
