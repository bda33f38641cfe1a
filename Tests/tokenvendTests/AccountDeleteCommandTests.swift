import ArgumentParser
import AuthAPI
import Foundation
import Synchronization
import Testing
import TokenClient
import TokenClientTesting

@testable import tokenvend

@Suite("Command-line client: account delete")
struct AccountDeleteCommandTests {
    /// Runs `tokenvend account delete` in-process with `extra` arguments.
    static func delete(
        _ harness: CommandHarness, _ extra: [String], stdin: String = "", environment: [String: String] = [:],
        terminal: (prompt: @Sendable (String) -> String?, confirmation: String)? = nil
    ) async throws -> Int32 {
        let command = try AccountDeleteCommand.parse(harness.common + extra)
        var context = harness.context(stdin: terminal.map { $0.confirmation + "\n" } ?? stdin, environment: environment)
        if let terminal {
            context.standardInputIsTerminal = true
            context.promptWithoutEcho = terminal.prompt
        }
        return await exitStatus { try await command.run(in: context) }
    }

    @Test("--yes --password-stdin deletes the account, removes the session file and its record")
    func deleteWithPasswordStdin() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login() == 0)
        let status = try await Self.delete(
            harness, ["--yes", "--password-stdin"], stdin: FakeAuthServer.password + "\n")
        #expect(status == 0)
        let request = try #require(harness.server.requests.last)
        #expect(request.method == "DELETE" && request.path == "/auth/account")
        #expect(request.authorization == "Bearer access-1")
        let body = try JSONDecoder().decode(AccountDeletionRequest.self, from: try #require(request.body))
        #expect(body.password == FakeAuthServer.password)
        #expect(!FileManager.default.fileExists(atPath: harness.sessionFile.path))
        #expect(SessionServerRecord(sessionFile: harness.sessionFile).read() == nil)
        #expect(harness.standardOutput.last == "deleted the account \(FakeAuthServer.email); signed out")
        harness.expectNoSecretsPrinted()
        // Nothing left to delete.
        #expect(try await Self.delete(harness, ["--yes", "--no-password"]) == 1)
        #expect(harness.standardError.last?.contains("not logged in") == true)
    }

    @Test("a wrong password is reauthentication_required: exit 1 with a hint, the session stays")
    func wrongPassword() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login() == 0)
        let status = try await Self.delete(
            harness, ["--yes"], environment: ["TOKENVEND_PASSWORD": "not the password"])
        #expect(status == 1)
        #expect(harness.standardError.contains { $0.contains("reauthentication_required") })
        #expect(harness.standardError.contains { $0.contains("tokenvend login again") })
        #expect(try harness.store.load()?.accessToken == "access-1")
        #expect(harness.server.state.withLock { $0.deletion.deleted }.isEmpty)
    }

    @Test("without a terminal, --yes is required and a password source or --no-password too (exit 2)")
    func usage() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login() == 0)
        #expect(try await Self.delete(harness, ["--password-stdin"], stdin: "x\n") == 2)
        #expect(harness.standardError.last?.contains("--yes") == true)
        #expect(try await Self.delete(harness, ["--yes"]) == 2)
        #expect(harness.standardError.last?.contains("--no-password") == true)
        #expect(throws: (any Error).self) { try AccountDeleteCommand.parse(["--no-password", "--password-stdin"]) }
        #expect(harness.server.count("/auth/account") == 0)
        #expect(try harness.store.load() != nil)
    }

    @Test("on a terminal it asks to type delete, then the password; an empty password sends none")
    func terminalPrompts() async throws {
        let harness = try CommandHarness()
        defer { harness.remove() }
        #expect(try await harness.login() == 0)
        let declined = try await Self.delete(harness, [], terminal: ({ _ in "unused" }, "no"))
        #expect(declined == 130)
        #expect(harness.server.count("/auth/account") == 0)

        let prompts = Mutex<[String]>([])
        let typed = try await Self.delete(
            harness, [],
            terminal: (
                { prompt in
                    prompts.withLock { $0.append(prompt) }
                    return FakeAuthServer.password
                }, "delete"
            ))
        #expect(typed == 0)
        #expect(
            prompts.withLock { $0 } == ["Password for the account \(FakeAuthServer.email) (empty if it has none): "])
        #expect(harness.standardError.contains { $0.contains("Type delete to confirm") })

        harness.server.configure {
            $0.deletion.hasPassword = false
            $0.email.accounts.insert(FakeAuthServer.email)
        }
        #expect(try await harness.login() == 0)
        let empty = try await Self.delete(harness, [], terminal: ({ _ in "" }, "delete"))
        #expect(empty == 0)
        let body = try #require(harness.server.requests.last?.body)
        #expect(try JSONDecoder().decode(AccountDeletionRequest.self, from: body).password == nil)
    }
}
