import Foundation
import Logging
import SQLiteStore
import Store
import Testing
import TokenServiceTesting

@testable import TokenService

/// What surrounds the flows: the purger's pruning, the strict request bodies, and the file transport of a test
/// server (and of `make run`), whose log names the file but never the code.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct EmailHousekeepingTests {
    @Test("the session purger deletes outbox rows given up more than 7 days ago, and keeps newer ones")
    func purgerPrunesEmail() async throws {
        let fixture = try Fixture(script: [])
        let store = fixture.store.email
        for (id, age) in [("old", 8.0 * 86_400), ("new", 3_600.0)] {
            try await store.enqueue(
                OutboxMessage(id: id, kind: "test", recipient: "a@example.com", body: [1], createdAt: fixture.clock.now)
            )
            try await store.failOutbox(id: id, lastError: "refused", now: fixture.clock.now.addingTimeInterval(-age))
        }
        let purger = SessionPurger(
            sessions: fixture.store.sessions, email: store,
            logger: Logger(label: "test.purge", factory: { _ in SwiftLogNoOpLogHandler() }),
            now: { fixture.clock.now })
        _ = await purger.purgeNow()
        await purger.stop()
        #expect(try await store.listOutbox().map(\.id) == ["new"])
    }

    @Test(
        "the email request bodies are decoded strictly: unknown members, wrong types and non-JSON are 400 or 415",
        arguments: [
            ("/auth/password/reset", #"{"email":"a@example.com","extra":1}"#, 400),
            ("/auth/password/reset", #"{"email":5}"#, 400),
            ("/auth/password/reset", #"{"email":"not an address"}"#, 400),
            ("/auth/password/reset", #"{"email":"a@example.com","email":"b@example.com"}"#, 400),
            ("/auth/password/reset/confirm", #"{"email":"a@example.com","code":"123456"}"#, 400),
            ("/auth/email/code", #"{"email":"a@example.com"}"#, 404),
        ])
    func strictBodies(path: String, json: String, status: Int) async throws {
        try await withTestServer(mode: .router) { server in
            let answer = try await server.request("POST", path, json: json)
            #expect(answer.status == status, "\(path) \(json)")
            let text = try await server.request(
                "POST", "/auth/password/reset", headers: ["Content-Type": "text/plain"], json: "email=a")
            #expect(text.status == 415)
        }
    }

    @Test("by default a test server writes each message as an .eml file in its own folder and logs the path only")
    func fileTransport() async throws {
        try await withTestServer { server in
            #expect(server.configuration.email.transportName == "file")
            _ = try await server.signUp(email: "file@example.com")
            #expect(
                try await server.request("POST", "/auth/password/reset", json: #"{"email":"file@example.com"}"#)
                    .status == 202)
            // The file appears when the sender has run: a deadline bounds the wait (no event to await here).
            let deadline = Date().addingTimeInterval(20)
            var files: [URL] = []
            while files.isEmpty, Date() < deadline {
                files =
                    (try? FileManager.default.contentsOfDirectory(
                        at: server.outboxDirectory, includingPropertiesForKeys: nil))?.filter {
                        $0.pathExtension == "eml"
                    } ?? []
                if files.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            let file = try #require(files.first)
            let message = try String(contentsOf: file, encoding: .utf8)
            #expect(message.contains("To: file@example.com"))
            var logs = server.logs()
            while !logs.contains(#""email.result":"sent""#), Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
                logs = server.logs()
            }
            #expect(logs.contains(file.lastPathComponent))
            #expect(logs.contains("email transport is file"))
            // The code: a run of six digits in the body (the headers hold the row id, which the log names).
            let body = message.components(separatedBy: "\r\n\r\n").dropFirst().joined()
            let digits = body.split(whereSeparator: { !$0.isNumber }).filter { $0.count == 6 }
            #expect(!digits.isEmpty)
            for code in digits { #expect(!logs.contains(String(code))) }
        }
    }
}
