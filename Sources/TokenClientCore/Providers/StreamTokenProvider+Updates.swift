#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Proactive delivery of Stream tokens.
extension StreamTokenProvider {
    /// A stream of tokens: the current one at once, then a new one at each `refreshAt` (60 s before `exp`
    /// by default), for pushing to `Exponea.shared.setSdkAuthToken(_:)` before the old one lapses.
    ///
    /// Stops when the consumer stops iterating; ends with the error of a failed fetch (for example
    /// ``TokenClientError/signedOut``). Waits at least `minimumInterval` seconds between fetches so a token
    /// whose lifetime is shorter than the margin cannot cause a hot loop.
    /// - Parameters:
    ///   - minimumInterval: the shortest wait between two fetches; 5 s by default.
    ///   - sleep: waits the given number of seconds; `Task.sleep` by default (inject one in tests).
    public func tokenUpdates(
        minimumInterval: TimeInterval = 5,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }
    ) -> AsyncThrowingStream<ExpiringToken, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last: String?
                do {
                    while !Task.isCancelled {
                        let token = try await currentToken()
                        if token.token != last { continuation.yield(token) }
                        last = token.token
                        try await sleep(max(token.refreshAt.timeIntervalSince(clock()), minimumInterval))
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
