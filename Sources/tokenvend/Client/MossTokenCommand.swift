import ArgumentParser
import TokenClientCore

/// `tokenvend token moss`: prints a Moss project token (`GET /moss-token`).
struct MossTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moss",
        abstract: "Print a Moss project token."
    )

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: TokenOutputOptions

    func run() async throws {
        try await run(in: .live)
    }

    /// Fetches and prints the token.
    func run(in context: ClientContext) async throws {
        try await context.reportingFailures {
            try await output.printToken(client: client, in: context) { session in
                session.makeRequest("GET", "moss-token")
            }
        }
    }
}
