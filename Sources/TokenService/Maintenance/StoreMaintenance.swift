import Dispatch
import FoundationEssentials
public import PostgresStore
import SQLiteStore
public import Store

/// What `tokenvend db migrate`, `db status` and `db copy` do, on the store a configuration names; in the library
/// so that tests drive it in-process. Nothing here prints or logs a password: stores are named by their
/// `displayName` (PostgreSQL URLs redacted).
public enum StoreMaintenance {
    /// Why a command failed; `description` is one line for the terminal, never with a password.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The store failed (unreachable, corrupt, …), or a file could not be read.
        case store(String)
        /// The schema was written by a newer tokenvend.
        case schemaTooNew(found: Int, known: Int)
        /// `db copy` met a target that already holds other users, without `--replace`.
        case targetNotEmpty
        /// A bad argument (`--from` not `sqlite:PATH`, a missing file, no target).
        case usage(String)

        public var description: String {
            switch self {
            case .store(let reason): reason
            case .schemaTooNew(let found, let known):
                "the schema is at version \(found), newer than this tokenvend knows (\(known)); upgrade tokenvend"
            case .targetNotEmpty:
                "the target database already holds other users; give --replace to replace its users and sessions"
            case .usage(let reason): reason
            }
        }

        /// As `init(_:)`; for an unreachable PostgreSQL database, names why (one more connection attempt):
        /// "the database is unavailable (unreachable: authentication failed)".
        init(_ error: StoreError, diagnosing configuration: PostgresStore.Configuration) async {
            guard case .unavailable(.unreachable) = error,
                let failure = await PostgresStore.connectionFailure(configuration: configuration)
            else {
                self.init(error)
                return
            }
            self = .store("the database is unavailable (unreachable: \(failure))")
        }

        init(_ error: StoreError) {
            switch error {
            case .schemaTooNew(let found, let known): self = .schemaTooNew(found: found, known: known)
            case .unavailable(let reason): self = .store("the database is unavailable (\(reason))")
            case .misuse(let message): self = .store(message)
            default: self = .store("\(error)")
            }
        }
    }

    /// The schema state of a store.
    public struct Status: Sendable, Equatable {
        /// The store, never with a password (`sqlite:data/tokenvend.sqlite`, `postgres://tokenvend@db:5432/t`).
        public var displayName: String
        /// The version found and the last this tokenvend knows.
        public var version: SchemaVersion
        /// Whether migrations are pending (found below known).
        public var pending: Bool { version.found < version.known }
    }

    /// What `migrate` applied.
    public struct Migration: Sendable, Equatable {
        public var displayName: String
        /// The versions applied now, in order (empty when the schema was current).
        public var applied: [Int]
        /// The version after migrating, and the last known.
        public var version: SchemaVersion
    }

    /// The last schema version this tokenvend knows.
    public static var knownVersion: Int { Schema.migrations.last?.version ?? 0 }

    /// The schema version recorded in the SQLite file at `path`, without migrating it.
    private static func recordedVersion(atPath path: String) throws(Failure) -> Int {
        do { return try SQLiteStore.recordedVersion(atPath: path) } catch { throw .store(error.description) }
    }

    /// The schema version of the configured store, without changing it.
    public static func status(_ configuration: TokenServiceConfiguration) async throws(Failure) -> Status {
        if let postgres = StoreOpener.postgresConfiguration(configuration) {
            let name = configuration.postgres.redactedURL ?? "postgres"
            do {
                return Status(
                    displayName: name, version: try await PostgresStore.schemaVersion(configuration: postgres))
            } catch {
                throw await Failure(error, diagnosing: postgres)
            }
        }
        let path = configuration.database.path
        let found = FileManager.default.fileExists(atPath: path) ? try recordedVersion(atPath: path) : 0
        return Status(displayName: "sqlite:\(path)", version: SchemaVersion(found: found, known: knownVersion))
    }

    /// Applies the pending migrations of the configured store (PostgreSQL: under `pg_advisory_lock`, safe while
    /// instances start or run; SQLite: in `BEGIN IMMEDIATE`, creating the file when missing).
    public static func migrate(_ configuration: TokenServiceConfiguration) async throws(Failure) -> Migration {
        if let postgres = StoreOpener.postgresConfiguration(configuration) {
            do {
                let report = try await PostgresStore.migrate(configuration: postgres)
                return Migration(
                    displayName: configuration.postgres.redactedURL ?? "postgres", applied: report.applied,
                    version: report.version)
            } catch {
                throw await Failure(error, diagnosing: postgres)
            }
        }
        let path = configuration.database.path
        let before = FileManager.default.fileExists(atPath: path) ? try recordedVersion(atPath: path) : 0
        do {
            var database = configuration.database
            database.readerCount = 1
            let store = try await StoreOpener.openSQLite(database)
            defer { store.close() }
            let version = try await store.schemaVersion()
            let applied = version.found > before ? Array((before + 1)...version.found) : []
            return Migration(displayName: store.displayName, applied: applied, version: version)
        } catch {
            throw Failure(error)
        }
    }

    /// Copies a SQLite deployment's users, customer ids and live sessions into PostgreSQL (`tokenvend db copy`).
    ///
    /// The SQLite file may be in use by a running server: it is read in one read transaction on a `query_only`
    /// connection (WAL readers never block the writer), without opening a store, so it is never migrated; a
    /// schema newer than this tokenvend, or older than the snapshot reader supports, is refused. The target is
    /// migrated first. Idempotent (rows are upserted); refuses a target holding other
    /// users unless `replacing`.
    /// - Parameters:
    ///   - sqlitePath: the SQLite file; it must exist (a missing one is refused rather than created empty).
    ///   - target: the PostgreSQL store's configuration.
    public static func copy(
        fromSQLite sqlitePath: String, to target: PostgresStore.Configuration, replacing: Bool
    ) async throws(Failure) -> CopyReport {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: sqlitePath, isDirectory: &isFolder), !isFolder else {
            throw .usage("no SQLite database at \(sqlitePath)")
        }
        // Read without opening a store: a live server's file is neither migrated nor written.
        let read = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<StoreSnapshot, StoreError>, Never>) in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(StoreError) in try SQLiteStore.snapshot(readingFileAt: sqlitePath) })
            }
        }
        let snapshot: StoreSnapshot
        do {
            snapshot = try read.get()
        } catch {
            throw Failure(error)
        }
        do {
            let store = try await PostgresStore(configuration: target)
            defer { store.close() }
            return try await store.copy(from: snapshot, replacing: replacing)
        } catch .constraint(.other) {
            throw .targetNotEmpty
        } catch {
            throw Failure(error)
        }
    }
}
