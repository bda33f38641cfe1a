import ArgumentParser
import AuthAPI
import FoundationEssentials
import TokenClient

/// `tokenvend logout`: ends sessions on the server and forgets this one locally.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out: end sessions on the server and remove the tokens from the session file.",
        discussion: """
            --scope local (the default) ends this session, global every session of the user, others every \
            session but this one (which stays signed in). For local and global the tokens are removed from the \
            session file first, even when the server cannot be told. Exit status: 0 done (a local logout \
            whose server call failed prints a warning and still exits 0), 1 the server could not end the \
            other sessions (global, others) or not logged in (others), 2 usage error.
            """
    )

    @OptionGroup var client: ClientOptions

    @Option(help: ArgumentHelp("Which sessions to end: local, others or global.", valueName: "scope"))
    var scope: Scope = .local

    func run() async throws {
        try await run(in: .live)
    }

    /// Logs out on the server and, unless the scope is `others`, removes the session file and its record.
    func run(in context: ClientContext) async throws {
        try await context.reportingFailures {
            let client = try client.makeSession(in: context)
            if scope == .others { try await client.requireReadableStore() }
            let outcome = await Self.logout(client.session, scope: scope.logoutScope)
            if scope != .others {
                // Also removes a session file the session could not read (corrupt, or another format).
                try FileTokenStore(url: client.location.file).clear()
                SessionServerRecord(sessionFile: client.location.file).remove()
            }
            switch outcome {
            case .success:
                break
            case .failure(let error) where scope == .local:
                let report = FailureReport(error)
                context.writeError("warning: removed the local session, but " + report.message)
            case .failure(let error):
                throw error
            }
        }
    }

    /// Logs out, keeping the library's error. `AuthSession.logout` clears the tokens before it calls the
    /// server for `.local` and `.global`.
    static func logout(_ session: AuthSession, scope: LogoutScope) async -> Result<Void, TokenClientError> {
        do {
            try await session.logout(scope: scope)
            return .success(())
        } catch let error as TokenClientError {
            return .failure(error)
        } catch {
            return .failure(.transport(String(describing: type(of: error))))
        }
    }
}

extension LogoutCommand {
    /// The `--scope` values (the wire type lives in AuthAPI, which does not know ArgumentParser).
    enum Scope: String, ExpressibleByArgument, CaseIterable {
        case local, others, global

        var logoutScope: LogoutScope {
            switch self {
            case .local: .local
            case .others: .others
            case .global: .global
            }
        }
    }
}
