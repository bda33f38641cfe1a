import ArgumentParser
import AuthAPI
import TokenClientCore

/// `tokenvend token stream`: prints a Bloomreach Stream JWT (`POST /stream-token`).
struct StreamTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Print a Bloomreach Stream JWT.",
        discussion: "Without --customer-id the token carries all of the user's customer ids."
    )

    @OptionGroup var client: ClientOptions
    @OptionGroup var output: TokenOutputOptions

    @Option(
        name: .customLong("customer-id"),
        help: ArgumentHelp(
            "A customer id to put in the token (repeatable); it must be the user's.", valueName: "key=value"))
    var customerIds: [String] = []

    func run() async throws {
        try await run(in: .live)
    }

    /// Fetches and prints the token.
    func run(in context: ClientContext) async throws {
        try await context.reportingFailures {
            let ids = try CustomerIDArguments.parse(customerIds)
            try await output.printToken(client: client, in: context) { session in
                session.makeRequest("POST", "stream-token", body: StreamTokenRequest(customerIDs: ids))
            }
        }
    }
}
