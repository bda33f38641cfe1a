import Foundation
import Testing
import TokenService
import TokenServiceTesting

/// A database on a tiny tmpfs that the test fills up, as a disk that runs out of space would.
/// Mounting needs root, as `make test` itself does (it installs system packages); CI runs as root.
@Suite(.tags(.integration), .timeLimit(.minutes(1)))
struct FullDiskTests {
    @Test("a full disk gives 503 on writes while reads keep working, and recovers without a restart")
    func fullDisk() async throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("tokenvend-full-\(UUID())")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        try run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path])
        defer {
            try? run("/bin/umount", [mountPoint.path])
            try? FileManager.default.removeItem(at: mountPoint)
        }
        let database = mountPoint.appendingPathComponent("tokenvend.sqlite").path
        try await withTestServer(environment: ["TOKENVEND_DATABASE_PATH": database]) { server in
            let user = try await server.signUp(email: "before@example.com")
            let filler = mountPoint.appendingPathComponent("filler")
            try fill(filler)

            // Writes fail as soon as SQLite needs a page the disk cannot give (the WAL may first reuse room).
            var failed: TestResponse?
            for index in 0..<300 {
                let response = try await server.request(
                    "POST", "/auth/register",
                    json: #"{"email":"full-\#(index)@example.com","password":"\#(TestServer.password)"}"#)
                if response.status != 201 {
                    failed = response
                    break
                }
            }
            let refused = try #require(failed)
            #expect(refused.status == 503)
            #expect(refused.errorCode == "unavailable")
            #expect(refused.headers["retry-after"] != nil)
            #expect(!refused.text.localizedCaseInsensitiveContains("sqlite"))

            // Reads keep working: authentication (session check), stream tokens (customer ids), readiness.
            #expect(try await server.request("GET", "/auth/me", headers: user.bearer).status == 200)
            #expect(try await server.request("POST", "/stream-token", headers: user.bearer).status == 200)
            #expect(try await server.request("GET", "/readyz").status == 200)

            // Room comes back: writes work again without a restart, and nothing acknowledged was lost.
            try FileManager.default.removeItem(at: filler)
            let registered = try await server.request(
                "POST", "/auth/register", json: #"{"email":"after@example.com","password":"\#(TestServer.password)"}"#)
            #expect(registered.status == 201)
            let refreshed = try await server.request(
                "POST", "/auth/refresh", json: #"{"refreshToken":"\#(user.refreshToken)"}"#)
            #expect(refreshed.status == 200)
            _ = try await server.logIn(email: "before@example.com")
        }
    }

    /// Writes 16 KiB blocks until the file system says it is full.
    private func fill(_ url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0xAB, count: 16384)
        while true {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { break }
        }
        // Fill the last partial block too.
        let byte: [UInt8] = [0]
        while byte.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) == 1 {}
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " ")) failed (needs root)")
    }
}
