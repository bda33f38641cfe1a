import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tokenvend healthcheck`: exit 0 when `/healthz` answers 200 (the container's HEALTHCHECK).
struct HealthcheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 when GET /healthz answers 200, else 1.",
        discussion: "Default URL: http://127.0.0.1:$TOKENVEND_SERVER_PORT/healthz (port 8080 when unset)."
    )

    @Option(help: "The URL to check.")
    var url: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 5

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let port = environment["TOKENVEND_SERVER_PORT"].flatMap(Int.init) ?? 8080
        let text = url ?? "http://127.0.0.1:\(port)/healthz"
        guard let target = URL(string: text), target.scheme == "http" || target.scheme == "https" else {
            throw ValidationError("--url must be an http(s) URL")
        }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        let session = URLSession(configuration: .ephemeral)
        do {
            let (_, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else {
                FileHandle.standardError.write(Data("unhealthy: \(text) answered \(status)\n".utf8))
                throw ExitCode.failure
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileHandle.standardError.write(Data("unhealthy: \(text): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
    }
}
