import ArgumentParser
import FoundationEssentials
import Store
import TokenService

/// `tokenvend email send-test|outbox`: check the configured mail transport, and look into the outbox.
struct EmailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "email",
        abstract: "Send a test message through the configured transport, or list the outbox.",
        subcommands: [SendTest.self, Outbox.self]
    )

    /// One line on stderr (without control characters) and exit 1.
    static func fail(_ command: String, _ reason: String) -> ExitCode {
        TerminalIO.writeStandardError("tokenvend email \(command): \(FailureReport.sanitized(reason))")
        return .failure
    }
}

extension EmailCommand {
    struct Outbox: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "outbox",
            abstract: "List the outbox's pending and given-up messages, one line each (never a body or code).",
            discussion: """
                Prints ID KIND RECIPIENT ATTEMPTS CREATED NEXT-ATTEMPT FAILED LAST-ERROR per row, tab-separated, \
                oldest first; NEXT-ATTEMPT is the end of the lease while a sender holds the row and - once it is \
                given up; FAILED and LAST-ERROR are - when there is none. Times are ISO 8601 UTC. Exit status: 0, \
                or 1 when the store cannot be read.
                """)
        @OptionGroup var options: ServerConfigurationOptions

        func run() async throws {
            let configuration = try options.load(prepareStorage: false).configuration
            let rows: [OutboxSummary]
            do {
                let backend = try await StoreOpener.open(configuration)
                defer { backend.close() }
                rows = try await backend.email.listOutbox()
            } catch {
                throw EmailCommand.fail("outbox", "\(error)")
            }
            for row in rows { print(Self.line(row)) }
        }

        /// The row as one tab-separated line; the recipient and the reason without control characters.
        static func line(_ row: OutboxSummary) -> String {
            var next = row.nextAttemptAt
            if let held = row.claimedUntil, held > next { next = held }
            let fields = [
                row.id, row.kind, FailureReport.sanitized(row.recipient), String(row.attempts),
                row.createdAt.formatted(.iso8601), row.failedAt == nil ? next.formatted(.iso8601) : "-",
                row.failedAt?.formatted(.iso8601) ?? "-", row.lastError.map(FailureReport.sanitized) ?? "-",
            ]
            return fields.joined(separator: "\t")
        }
    }
}
