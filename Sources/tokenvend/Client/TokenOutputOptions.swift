import ArgumentParser
import AuthAPI
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How `tokenvend token …` prints, and the request-and-print sequence its subcommands share.
struct TokenOutputOptions: ParsableArguments {
    @Flag(help: "Print {\"token\",\"expiresIn\"} as JSON instead of the raw token.")
    var json = false

    /// The line to print for `vended`.
    func render(_ vended: VendedToken) throws -> String {
        guard json else { return vended.token }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(vended), as: UTF8.self)
    }

    /// Sends the request `makeRequest` builds through the stored session and prints the token.
    ///
    /// Fails before any request when the session file is unreadable. When a refresh happened and its new
    /// tokens could not be written back, the token is still printed but the command fails, because the
    /// session file now holds a spent refresh token.
    func printToken(
        client: ClientOptions, in context: ClientContext, _ makeRequest: (AuthSession) -> TransportRequest
    ) async throws {
        let client = try client.makeSession(in: context)
        try await client.requireReadableStore()
        let vended: VendedToken = try await client.session.json(makeRequest(client.session))
        context.writeOutput(try render(vended))
        if let error = await client.storageError() { throw error }
    }
}
