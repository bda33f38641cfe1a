import ArgumentParser
import AuthAPI
import Foundation
import Testing
import TokenClient
import TokenClientTesting
import TokenServiceTesting

@testable import tokenvend

/// `tokenvend account delete` run in-process against the real server through its own transport (libcurl).
@Suite("tokenvend account delete against the real server", .tags(.integration), .timeLimit(.minutes(1)))
struct AccountDeleteEndToEndTests {
    @Test("a wrong password keeps the account and the session; the right one deletes both; the email registers again")
    func deleteThroughTheCommand() async throws {
        try await withTestServer { live in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let sessionFile = folder.url.appending(path: "config/tokenvend/session.json")
            let common = ["--url", live.baseURL.absoluteString, "--session-file", sessionFile.path]
            let console = CommandLineEndToEndTests.Console()
            let email = "cli-delete-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            try await live.session(now: { Date() }).register(email: email, password: TestServer.password)
            let login = try LoginCommand.parse(common + ["--email", email, "--password-stdin"])
            #expect(
                await exitStatus { try await login.run(in: console.context(stdin: TestServer.password + "\n")) }
                    == 0)

            let delete = try AccountDeleteCommand.parse(common + ["--yes", "--password-stdin"])
            #expect(
                await exitStatus { try await delete.run(in: console.context(stdin: "not the password at all\n")) }
                    == 1)
            #expect(console.errors.joined(separator: "\n").contains("reauthentication_required"))
            #expect(try FileTokenStore(url: sessionFile).load() != nil)

            #expect(
                await exitStatus { try await delete.run(in: console.context(stdin: TestServer.password + "\n")) }
                    == 0)
            #expect(console.output.last == "deleted the account \(email); signed out")
            #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
            let status = try await live.request(
                "POST", "/auth/login", json: #"{"email":"\#(email)","password":"\#(TestServer.password)"}"#
            ).status
            #expect(status == 401)
            try await live.session(now: { Date() }).register(email: email, password: TestServer.password)
        }
    }
}
