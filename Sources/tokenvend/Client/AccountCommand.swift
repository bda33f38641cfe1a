import ArgumentParser

/// `tokenvend account …`: the signed-in user's own account.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Manage the signed-in account (the session of tokenvend login).",
        subcommands: [AccountDeleteCommand.self]
    )
}
