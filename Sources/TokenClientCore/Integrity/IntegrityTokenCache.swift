#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Holds the session's `X-App-Integrity` value: obtained lazily from the provider, kept until 60 s before it
/// expires, with one exchange in flight however many requests wait for it.
actor IntegrityTokenCache {
    /// How long before `expiresAt` a value is renewed.
    static let renewalLeeway: TimeInterval = 60
    private let provider: any AppIntegrityProvider
    private let exchange: IntegrityExchange
    private let now: @Sendable () -> Date
    private var current: IntegrityCredential?
    private var inFlight: Task<IntegrityCredential, any Error>?

    init(provider: any AppIntegrityProvider, exchange: IntegrityExchange, now: @escaping @Sendable () -> Date) {
        self.provider = provider
        self.exchange = exchange
        self.now = now
    }

    /// A value that is not within the leeway of its expiry, obtaining one when needed.
    /// - Throws: ``TokenClientError`` (``TokenClientError/integrity(_:)`` for the provider's own failures).
    func credential() async throws -> IntegrityCredential {
        if let current, now() < current.expiresAt.addingTimeInterval(-Self.renewalLeeway) { return current }
        return try await obtain()
    }

    /// A value other than `refused` (which the server turned down): a newer one another caller got, or a new one.
    func renewed(replacing refused: String) async throws -> IntegrityCredential {
        if let current, current.value != refused { return current }
        current = nil
        return try await obtain()
    }

    private func obtain() async throws -> IntegrityCredential {
        if let inFlight { return try await inFlight.value }
        let provider = self.provider
        let exchange = self.exchange
        let task = Task { try await Self.call(provider, exchange) }
        inFlight = task
        defer { inFlight = nil }
        let credential = try await task.value
        current = credential
        return credential
    }

    private static func call(_ provider: any AppIntegrityProvider, _ exchange: IntegrityExchange) async throws
        -> IntegrityCredential
    {
        do {
            return try await provider.integrityToken(using: exchange)
        } catch let error as TokenClientError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as AppIntegrityFailure {
            throw TokenClientError.integrity(error)
        } catch {
            throw TokenClientError.integrity(.provider(String(describing: error)))
        }
    }
}
