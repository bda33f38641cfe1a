import Foundation
import Testing
import TokenServiceTesting

/// The real `tokenvend serve` binary in the environment a Kubernetes pod gets when a Service named `tokenvend`
/// exists in its namespace (service links are on by default).
@Suite("Kubernetes service-link variables, real binary", .tags(.integration), .timeLimit(.minutes(2)), .serialized)
struct KubernetesEnvironmentTests {
    @Test("serve starts and answers /healthz with exactly the variables a Service named tokenvend injects")
    func startsWithServiceLinks() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ChildServer(
            database: folder.appending(path: "tokenvend.sqlite"), logFile: folder.appending(path: "server.log"),
            environment: Self.injected)
        defer { server.stop(with: SIGTERM) }
        let answer = try await ChildClient(port: server.port).send("GET", "/healthz")
        #expect(answer.status == 200)
    }

    @Test("a misspelt setting beside them still stops serve, naming the closest key")
    func typoStillStops() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = Self.injected
        environment["TOKENVEND_SERVER_PROT"] = "8080"
        do {
            let server = try ChildServer(
                database: folder.appending(path: "tokenvend.sqlite"), logFile: folder.appending(path: "server.log"),
                environment: environment)
            server.stop(with: SIGKILL)
            Issue.record("tokenvend serve started with TOKENVEND_SERVER_PROT set")
        } catch let failure as ChildServer.Failure {
            #expect(failure.description.contains("exited (1)"))
            #expect(
                failure.description.contains(
                    "TOKENVEND_SERVER_PROT: unknown environment variable; TOKENVEND_* variables must name a "
                        + "configuration key; did you mean TOKENVEND_SERVER_PORT (server.port)?"))
        }
    }

    /// Exactly what a Service `tokenvend` injects (shared with the pure shape tests).
    static let injected = KubernetesServiceLinkTests.injected

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tokenvend-k8s-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
