import ArgumentParser
import AuthAPI
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `tokenvend account delete`: deletes the signed-in account (`DELETE /auth/account`) and forgets the session.
struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the signed-in account for good, on the server, and remove the session file.",
        discussion: """
            Uses the session of tokenvend login. Asks for confirmation on the terminal unless --yes is given \
            (without a terminal, --yes is required). The account's password is read from one line of stdin with \
            --password-stdin, else from $TOKENVEND_PASSWORD, else from a prompt without echo when stdin is a \
            terminal (an empty answer sends none, for an account without a password); --no-password sends none. \
            An account without a password must have signed in recently (the server's \
            account.reauthenticationSeconds, 5 minutes by default): log in again first. The server removes the \
            user, its identities and every session on every device, and revokes its Sign in with Apple tokens. \
            Exit status: 0 deleted, 1 refused (a wrong password or a stale sign-in: reauthentication_required) \
            or failed, 2 usage error, 130 cancelled.
            """
    )

    @OptionGroup var client: ClientOptions

    @Flag(help: "Read the password from the first line of stdin (the line ending is stripped).")
    var passwordStdin = false

    @Flag(help: "Send no password (an account without one, signed in recently).")
    var noPassword = false

    @Flag(name: .shortAndLong, help: "Do not ask for confirmation.")
    var yes = false

    func validate() throws {
        if passwordStdin && noPassword {
            throw ValidationError("Give at most one of --password-stdin and --no-password.")
        }
    }

    func run() async throws {
        try await run(in: .live)
    }

    /// Confirms, reads the password, deletes, and removes the session file and its record.
    func run(in context: ClientContext) async throws {
        try await context.reportingFailures {
            let client = try client.makeSession(in: context)
            try await client.requireReadableStore()
            guard case .signedIn(let user) = await client.session.state else { throw TokenClientError.signedOut }
            let name = user.map { $0.email ?? "with id \($0.id)" } ?? "of this session"
            try confirm(name, in: context)
            let password = try readPassword(for: name, in: context)
            do {
                try await client.session.deleteAccount(password: password)
            } catch let error as TokenClientError where error.accountDeletionFailure == .reauthenticationRequired {
                context.writeError(
                    "the password is wrong or missing, or (for an account without one) the sign-in is too old: "
                        + "run tokenvend login again, then retry")
                throw error
            }
            // The session cleared the file; also drop the record of its server.
            SessionServerRecord(sessionFile: client.location.file).remove()
            context.writeOutput("deleted the account \(name); signed out")
        }
    }

    /// Asks on the terminal unless `--yes`; without a terminal `--yes` is required.
    private func confirm(_ name: String, in context: ClientContext) throws {
        guard !yes else { return }
        guard context.standardInputIsTerminal else {
            throw ClientCommandError.usage("stdin is not a terminal: pass --yes to delete the account without asking")
        }
        context.writeError("Delete the account \(name) and everything it holds, for good? Type delete to confirm:")
        guard let answer = try PasswordReader.readLine(from: context.nextStandardInputByte) else {
            throw ClientCommandError.cancelled
        }
        guard answer.split(whereSeparator: \.isWhitespace) == ["delete"] else { throw ClientCommandError.cancelled }
    }

    /// The password to send, or nil for none: `--no-password`; else ``PasswordReader``'s sources, where a
    /// terminal's empty answer means none.
    private func readPassword(for name: String, in context: ClientContext) throws -> String? {
        if noPassword { return nil }
        let fromEnvironment = context.environment[PasswordReader.environmentVariable].map { !$0.isEmpty } ?? false
        guard !passwordStdin, !fromEnvironment, context.standardInputIsTerminal else {
            let reader = PasswordReader(
                fromStandardInput: passwordStdin, environment: context.environment,
                standardInputIsTerminal: false, nextStandardInputByte: context.nextStandardInputByte,
                promptWithoutEcho: { nil })
            do {
                return try reader.read()
            } catch ClientCommandError.usage(let text) where text.hasPrefix("no password") {
                throw ClientCommandError.usage(text + ", or pass --no-password for an account without one")
            }
        }
        let prompt = "Password for the account \(name) (empty if it has none): "
        guard let typed = try context.promptWithoutEcho(prompt) else { throw ClientCommandError.cancelled }
        return typed.isEmpty ? nil : typed
    }
}
