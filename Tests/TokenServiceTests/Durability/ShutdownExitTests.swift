import Foundation
import HTTPServerTesting
import Testing
import TokenServiceTesting

/// `tokenvend serve` on SIGTERM: exit 0 after a complete drain, exit 1 when the grace period cut a request off.
@Suite("tokenvend serve exit status on SIGTERM", .tags(.integration), .timeLimit(.minutes(1)), .serialized)
struct ShutdownExitTests {
    static let password = "correct horse battery staple"

    @Test("a request that outlives the shutdown grace makes tokenvend serve exit 1, and promptly")
    func graceExpiredExitsNonZero() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The Moss upstream answers only after 20 s: the /moss-token handler is still waiting at SIGTERM.
        let answer = FakeUpstream.Answer(status: 200, body: #"{"token":"late","expiresIn":3600}"#, delay: .seconds(20))
        try await withFakeUpstream(always: answer) { upstream in
            let child = try ChildServer(
                database: folder.appending(path: "tokenvend.sqlite"), logFile: folder.appending(path: "server.log"),
                environment: [
                    "TOKENVEND_SERVER_SHUTDOWN_GRACE_SECONDS": "1",
                    "TOKENVEND_MOSS_PROJECT_ID": "project-1",
                    "TOKENVEND_MOSS_PROJECT_KEY": "moss-project-key-0123456789-0123456789",
                    "TOKENVEND_MOSS_AUTH_URL": upstream.url.absoluteString,
                ])
            let client = ChildClient(port: child.port)
            let email = "exit-\(UUID().uuidString.prefix(8))@example.com"
            #expect(
                try await client.send("POST", "/auth/register", json: client.credentials(email, Self.password)).status
                    == 201)
            let login = try await client.send("POST", "/auth/login", json: client.credentials(email, Self.password))
            let access = try #require(login.accessToken)
            let inFlight = Task { try? await client.send("GET", "/moss-token", bearer: access).status }
            let waitStarted = ContinuousClock.now
            while upstream.callCount == 0 && ContinuousClock.now - waitStarted < .seconds(10) {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(upstream.callCount == 1)
            let signalled = ContinuousClock.now
            let status = child.stop(with: SIGTERM)
            #expect(status == 1)
            #expect(ContinuousClock.now - signalled < .seconds(5))
            _ = await inFlight.value
            let log = try String(contentsOf: folder.appending(path: "server.log"), encoding: .utf8)
            #expect(log.contains("shutdown grace period ran out"))
        }
    }

    @Test("with nothing in flight tokenvend serve exits 0 on SIGTERM")
    func drainedExitsZero() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try ChildServer(
            database: folder.appending(path: "tokenvend.sqlite"), logFile: folder.appending(path: "server.log"))
        #expect(child.stop(with: SIGTERM) == 0)
    }
}
