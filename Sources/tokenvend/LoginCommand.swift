import ArgumentParser
import AuthAPI
import FoundationEssentials
import TokenClient

/// `tokenvend login`: signs in and keeps the session in the session file.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in and keep the session in the session file (mode 0600).",
        discussion: """
            The password is read from one line of stdin with --password-stdin, else from $TOKENVEND_PASSWORD, \
            else from a prompt without echo when stdin is a terminal. Prints the user's email and id, never \
            the tokens. Exit status: 0 signed in, 1 refused or failed, 2 usage error.
            """
    )

    @OptionGroup var client: ClientOptions

    @Option(help: "The account's email address.")
    var email: String

    @Flag(help: "Read the password from the first line of stdin (the line ending is stripped).")
    var passwordStdin = false

    func run() async throws {
        try await run(in: .live)
    }

    /// Signs in with the password ``PasswordReader`` finds, saves the session and records its server.
    func run(in context: ClientContext) async throws {
        try await context.reportingFailures {
            let reader = PasswordReader(
                fromStandardInput: passwordStdin,
                environment: context.environment,
                standardInputIsTerminal: context.standardInputIsTerminal,
                nextStandardInputByte: context.nextStandardInputByte,
                promptWithoutEcho: { [email] in try context.promptWithoutEcho("Password for \(email): ") }
            )
            let password = try reader.read()
            let client = try client.makeSession(in: context, replacingRecord: true)
            try client.location.createFolderIfMissing()
            let storageErrorBefore = await client.storageError()
            let user = try await client.session.login(email: email, password: password)
            if let error = await client.storageError(), error != storageErrorBefore { throw error }
            do {
                try SessionServerRecord(sessionFile: client.location.file).write(client.serverURL)
            } catch {
                // Without the record a later command could send these tokens to another server: drop them.
                try? FileTokenStore(url: client.location.file).clear()
                throw error
            }
            context.writeOutput("signed in as \(user.email ?? "-") (id \(user.id))")
        }
    }
}
