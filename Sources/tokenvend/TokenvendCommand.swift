import ArgumentParser

@main
struct TokenvendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenvend",
        abstract: "Vends short-lived tokens to apps: accounts, sessions, Moss and Bloomreach tokens.",
        subcommands: [KeysCommand.self, JWTCommand.self]
    )
}
