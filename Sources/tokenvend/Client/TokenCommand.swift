import ArgumentParser

/// `tokenvend token`: prints a token vended for the logged-in user.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a Moss or Bloomreach Stream token for the logged-in user.",
        discussion: """
            The raw token goes to stdout, so `$(tokenvend token moss)` works in scripts; --json prints \
            {"token","expiresIn"} instead. An expired access token is refreshed transparently. Exit status: 0 \
            printed, 1 not logged in or refused, 2 usage error.
            """,
        subcommands: [MossTokenCommand.self, StreamTokenCommand.self]
    )
}
