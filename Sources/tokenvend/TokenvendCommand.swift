import ArgumentParser
import FoundationEssentials

/// The one executable: the server (`serve`), operator tools (`users`, `db`, `keys`, `jwt`, `healthcheck`) and the
/// command-line client (`login`, `token`, `logout`, `password-reset`, `account`).
@main
struct TokenvendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenvend",
        abstract: "Vends short-lived tokens to apps: accounts, sessions, Moss and Bloomreach tokens.",
        subcommands: [
            ServeCommand.self, UsersCommand.self, DatabaseCommand.self, HealthcheckCommand.self, KeysCommand.self,
            JWTCommand.self, EmailCommand.self, IntegrityCommand.self,
            LoginCommand.self, TokenCommand.self, LogoutCommand.self, PasswordResetCommand.self, AccountCommand.self,
        ]
    )

    /// Runs the command; usage errors exit 2 (API.md), not ArgumentParser's 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            TerminalIO.writeStandardError(fullMessage(for: error))
            exit(withError: ExitCode(2))
        }
    }
}
