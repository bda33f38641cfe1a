import ArgumentParser
import FoundationEssentials
import OutboundHTTP

/// `tokenvend healthcheck`: exit 0 when `/healthz` answers 200 (the container's HEALTHCHECK).
///
/// One `GET` over OutboundHTTP (libcurl, not FoundationNetworking). The URL may be plain `http` to any host
/// (`OutboundURL.Rule.plainHTTPAnywhere`): the check carries no secret, and a container's HEALTHCHECK may name the
/// service by its network name. No redirect is followed; the body is not read.
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
        guard let target = try? OutboundURL(text, rule: .plainHTTPAnywhere) else {
            throw ValidationError("--url must be an http(s) URL")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
        let client = OutboundHTTPClient(
            deadline: .seconds(timeout), connectTimeout: .seconds(timeout), nonSuccessBodies: .discard)
        let status: Int
        do throws(OutboundHTTPError) {
            status = try await client.send(OutboundHTTPRequest(url: target)).status
        } catch {
            TerminalIO.writeStandardError("unhealthy: \(text): \(error)")
            throw ExitCode.failure
        }
        guard status == 200 else {
            TerminalIO.writeStandardError("unhealthy: \(text) answered \(status)")
            throw ExitCode.failure
        }
    }
}
