import ArgumentParser
import FoundationEssentials
import Store
import TokenService

/// `tokenvend integrity keys list|delete`: the App Attest keys tokenvend stored after verifying their
/// attestations, on the same store as running servers (SQLite or PostgreSQL, through the async store API).
struct IntegrityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "integrity",
        abstract: "Inspect the app-integrity state in the database (safe while the server runs).",
        subcommands: [Keys.self]
    )

    /// `tokenvend integrity keys …`.
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "List or delete attested App Attest keys.",
            subcommands: [ListKeys.self, DeleteKey.self]
        )
    }

    /// Opens the configured store (SQLite opens its reader connections lazily: one here), runs `body` on its
    /// integrity store, and turns a failure into one line on stderr (`tokenvend integrity keys <command>: …`) and
    /// exit 1.
    static func withIntegrity<T>(
        _ command: String, _ options: ServerConfigurationOptions, _ body: (any IntegrityStoring) async throws -> T
    ) async throws -> T {
        let configuration = try options.load(prepareStorage: false).configuration
        do {
            let backend = try await StoreOpener.open(configuration)
            defer { backend.close() }
            return try await body(backend.integrity)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            TerminalIO.writeStandardError("tokenvend integrity keys \(command): database: \(error)")
            throw ExitCode.failure
        }
    }
}

extension IntegrityCommand {
    struct ListKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the attested App Attest keys, oldest first.",
            discussion: """
                Prints KEY-ID APP-ID ENVIRONMENT COUNTER CREATED LAST-ASSERTED per key, tab-separated (LAST-ASSERTED \
                is - before the first assertion); with --json one JSON object per line: {"appId", "counter", \
                "createdAt", "environment", "keyId", "lastAssertedAt" (null before the first assertion)}. Keys \
                identify app installations, not users. Exit status: 0 (also when there are none), 1 on a database \
                failure.
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            let keys = try await IntegrityCommand.withIntegrity("list", options) { try await $0.attestedKeys() }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for key in keys {
                let listed = ListedKey(key)
                if json {
                    print(String(decoding: try encoder.encode(listed), as: UTF8.self))
                } else {
                    let fields = [
                        listed.keyId, listed.appId, listed.environment, String(listed.counter), listed.createdAt,
                        listed.lastAssertedAt ?? "-",
                    ]
                    print(fields.joined(separator: "\t"))
                }
            }
        }
    }

    struct DeleteKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an attested App Attest key: its installation's assertions are refused from now on.",
            discussion: """
                For an installation you no longer trust. Every running instance refuses the key's assertions at \
                once (reason unknown_key); integrity tokens already issued for it stay valid until they expire \
                (integrity.tokenLifetimeSeconds). The app can attest a new key. Exit status: 0 when deleted, 1 for \
                an unknown key id or a database failure, 2 usage error.
                """)
        @OptionGroup var options: ServerConfigurationOptions
        @Argument(help: "The key id exactly as listed (standard base64).") var keyId: String

        func run() async throws {
            let deleted = try await IntegrityCommand.withIntegrity("delete", options) {
                try await $0.deleteAttestedKey(id: keyId)
            }
            guard deleted else {
                TerminalIO.writeStandardError("tokenvend integrity keys delete: no App Attest key \(keyId)")
                throw ExitCode.failure
            }
            print("deleted App Attest key \(keyId)")
        }
    }
}

/// One key as `integrity keys list` prints it.
private struct ListedKey: Encodable {
    let keyId: String
    let appId: String
    let environment: String
    let counter: UInt32
    let createdAt: String
    let lastAssertedAt: String?

    private enum CodingKeys: String, CodingKey {
        case keyId, appId, environment, counter, createdAt, lastAssertedAt
    }

    /// Every member; no assertion yet is `null`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keyId, forKey: .keyId)
        try container.encode(appId, forKey: .appId)
        try container.encode(environment, forKey: .environment)
        try container.encode(counter, forKey: .counter)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastAssertedAt, forKey: .lastAssertedAt)
    }

    init(_ key: AttestedKey) {
        keyId = key.keyID
        appId = key.appID
        environment = key.environment.rawValue
        counter = key.counter
        createdAt = key.createdAt.formatted(.iso8601)
        lastAssertedAt = key.lastAssertedAt?.formatted(.iso8601)
    }
}
