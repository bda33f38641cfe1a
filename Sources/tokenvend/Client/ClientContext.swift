import ArgumentParser
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the client commands take from the process: environment, network, stdin and the two output streams.
/// Tests substitute every part; ``live`` is the real process.
struct ClientContext: Sendable {
    /// The environment variables.
    var environment: [String: String]
    /// How requests reach the server.
    var transport: any HTTPTransport
    /// Whether stdin is a terminal.
    var standardInputIsTerminal: Bool
    /// The next byte of stdin, `nil` at end of file.
    var nextStandardInputByte: @Sendable () throws -> UInt8?
    /// Shows the prompt and reads a line without echo; `nil` when the user cancelled.
    var promptWithoutEcho: @Sendable (_ prompt: String) throws -> String?
    /// Writes one line to stdout.
    var writeOutput: @Sendable (String) -> Void
    /// Writes one line to stderr.
    var writeError: @Sendable (String) -> Void

    /// The running process: its environment, an ``OutboundTransport`` (libcurl), and the real stdin, stdout, stderr.
    static var live: ClientContext {
        ClientContext(
            environment: ProcessInfo.processInfo.environment,
            transport: OutboundTransport(),
            standardInputIsTerminal: TerminalIO.standardInputIsTerminal,
            nextStandardInputByte: { try TerminalIO.readStandardInputByte() },
            promptWithoutEcho: { prompt in try TerminalIO.promptWithoutEcho(prompt) },
            writeOutput: { TerminalIO.writeStandardOutput($0) },
            writeError: { TerminalIO.writeStandardError($0) }
        )
    }

    /// Runs `body`; on failure writes ``FailureReport``'s line to stderr and throws its exit status as an
    /// `ExitCode`.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            let report = FailureReport(error)
            writeError(report.message)
            throw ExitCode(report.exitCode)
        }
    }
}
