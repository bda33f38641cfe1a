import ArgumentParser
import Foundation
import HTTPServerTesting
import IdentityProviders
import Testing

@testable import tokenvend

/// `jwt verify --jwks URL`: the limits of the download (refused URLs, redirects, size, time). The command uses the
/// server's fetcher (`CurlJWKSFetcher` on OutboundHTTP), with its own deadline and messages; which URLs the rule
/// accepts is `OutboundURLTests`' table (every case this suite's table had is there).
@Suite(.timeLimit(.minutes(1)))
struct JWKSFetchTests {
    static func fetch(_ source: String, timeout: Double = JWKSVerification.timeoutSeconds) async
        -> Result<[UInt8], JWKSFetchError>
    {
        do throws(JWKSFetchError) {
            return .success(try await JWKSVerification.fetch(source, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    @Test("a refused URL fails before any connection, with the command's message")
    func refusedURL() async {
        #expect(await Self.fetch("http://127.evil.example/jwks.json") == .failure(.insecureURL))
        #expect(JWKSVerification.message(.insecureURL) == "must be an https URL (http only to a loopback address)")
    }

    @Test("a redirect is not followed (as by the server's fetcher), even to a loopback server that would answer")
    func redirectNotFollowed() async throws {
        let set = #"{"keys":[]}"#
        let target = try HostileUpstream(always: .answer(status: 200, body: set))
        defer { target.shutdown() }
        let redirect = try HostileUpstream(
            always: .raw(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(target.port)/jwks.json\r\nContent-Length: 0\r\n"
                    + "Connection: close\r\n\r\n"))
        defer { redirect.shutdown() }
        #expect(await Self.fetch("http://127.0.0.1:\(target.port)/jwks.json") == .success(Array(set.utf8)))
        #expect(await Self.fetch("http://127.0.0.1:\(redirect.port)/jwks.json") == .failure(.status(302)))
        #expect(target.callCount == 1)
    }

    @Test("a body over the limit is cut off, announced or streamed", arguments: [Int?.none, 1_000_000])
    func tooLarge(contentLength: Int?) async throws {
        let server = try HostileUpstream(always: .endlessBody(status: 200, contentLength: contentLength))
        defer { server.shutdown() }
        let start = ContinuousClock.now
        #expect(await Self.fetch("http://127.0.0.1:\(server.port)/jwks.json") == .failure(.tooLarge))
        #expect(JWKSVerification.message(.tooLarge) == "larger than 65536 bytes")
        // Refused as soon as the limit is passed, not when the deadline (10 s) ends the transfer.
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("a server that never answers times out after the deadline")
    func timeout() async throws {
        let server = try HostileUpstream(always: .stall(.seconds(20)))
        defer { server.shutdown() }
        let start = ContinuousClock.now
        #expect(await Self.fetch("http://127.0.0.1:\(server.port)/jwks.json", timeout: 1) == .failure(.timedOut))
        #expect(ContinuousClock.now - start < .seconds(8))
    }

    @Test("a non-200 answer names its status")
    func status() async throws {
        let server = try HostileUpstream(always: .answer(status: 404, body: #"{"error":"not_found"}"#))
        defer { server.shutdown() }
        #expect(await Self.fetch("http://127.0.0.1:\(server.port)/x") == .failure(.status(404)))
        #expect(JWKSVerification.message(.status(404)) == "HTTP status 404")
    }
}

/// The help texts: every abstract and discussion is one paragraph of single-spaced words (a multi-line literal
/// that lost its `\` continuations prints newlines and runs of spaces).
@Suite struct HelpTextTests {
    static func commands(_ root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    @Test("no abstract or discussion of any command holds a newline or a run of spaces")
    func singleSpaced() {
        let all = Self.commands(TokenvendCommand.self)
        #expect(all.count > 10)
        for command in all {
            let configuration = command.configuration
            for text in [configuration.abstract, configuration.discussion] {
                #expect(!text.contains("  ") && !text.contains("\n"), "\(command): \(text)")
            }
        }
    }

    @Test("jwt verify --help prints its discussion as one paragraph")
    func verifyHelp() {
        let help = TokenvendCommand.helpMessage(for: JWTCommand.Verify.self, columns: 1000)
        #expect(help.contains("exp is required. With --secret-file: with --kid the token's kid must match; without it"))
        #expect(help.contains("cannot verify here"))
    }
}
