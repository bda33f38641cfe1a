import ArgumentParser
import AuthAPI
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `tokenvend password-reset`: asks for a reset code, reads it and a new password, confirms, and keeps the new
/// session in the session file like `tokenvend login`.
struct PasswordResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password-reset",
        abstract: "Reset a forgotten password with a code sent by email, and sign in.",
        discussion: """
            Asks the server to email a reset code (the server answers the same whether or not the account \
            exists), then reads the code and the new password: from prompts without echo when stdin is a \
            terminal, else from the first two lines of stdin. Confirms, keeps the new session like tokenvend \
            login, and prints the user's email and id. Exit status: 0 signed in, 1 refused or failed, 2 usage error.
            """
    )

    @OptionGroup var client: ClientOptions

    @Option(help: "The account's email address.")
    var email: String

    func run() async throws {
        try await run(in: .live)
    }

    /// Requests the code, reads the code and the password, confirms, saves the session and records its server.
    func run(in context: ClientContext) async throws {
        try await context.reportingFailures {
            let client = try client.makeSession(in: context, replacingRecord: true)
            try await client.session.requestPasswordReset(email: email)
            if context.standardInputIsTerminal {
                context.writeError("If an account has \(email), a code is on its way.")
            }
            let code = try readLine(in: context, prompt: "Code from the email: ", what: "the code")
            let password = try readLine(in: context, prompt: "New password: ", what: "the new password")
            let user = try await client.signIn {
                try await $0.confirmPasswordReset(
                    email: email, code: String(code.filter { !$0.isWhitespace }), newPassword: password)
            }
            context.writeOutput("password changed; signed in as \(user.email ?? "-") (id \(user.id))")
        }
    }

    /// One line: a prompt without echo on a terminal, else the next line of stdin (its ending stripped).
    private func readLine(in context: ClientContext, prompt: String, what: String) throws -> String {
        let line: String?
        if context.standardInputIsTerminal {
            guard let typed = try context.promptWithoutEcho(prompt) else { throw ClientCommandError.cancelled }
            line = typed
        } else {
            line = try PasswordReader.readLine(from: context.nextStandardInputByte)
        }
        guard let line else { throw ClientCommandError.usage("\(what): the line is longer than 4096 bytes") }
        guard !line.isEmpty else { throw ClientCommandError.usage("\(what) is empty") }
        return line
    }
}
