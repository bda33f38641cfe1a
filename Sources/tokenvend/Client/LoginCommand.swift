import ArgumentParser
import AuthAPI
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `tokenvend login`: signs in and keeps the session in the session file.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in and keep the session in the session file (mode 0600).",
        discussion: """
            The password is read from one line of stdin with --password-stdin, else from $TOKENVEND_PASSWORD, \
            else from a prompt without echo when stdin is a terminal. The session is bound to a P-256 DPoP key \
            (RFC 9449) kept in the session file, unless --no-dpop: the other commands then sign a proof for \
            every request, and the tokens are useless without the key. Prints the user's email and id, never \
            the tokens. Exit status: 0 signed in, 1 refused or failed, 2 usage error.
            """
    )

    @OptionGroup var client: ClientOptions

    @Option(help: "The account's email address.")
    var email: String

    @Flag(help: "Read the password from the first line of stdin (the line ending is stripped).")
    var passwordStdin = false

    @Flag(name: .customLong("no-dpop"), help: "Do not bind the session to a DPoP key: plain bearer tokens.")
    var noDPoP = false

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
            let client = try client.makeSession(in: context, replacingRecord: true, dpop: !noDPoP)
            // A key left by an earlier session would sign the next commands' requests: a bearer session has none.
            if noDPoP { try FileTokenStore(url: client.location.file).deleteKey() }
            let user = try await client.signIn { try await $0.login(email: email, password: password) }
            context.writeOutput("signed in as \(user.email ?? "-") (id \(user.id))")
        }
    }
}
