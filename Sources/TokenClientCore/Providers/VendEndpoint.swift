import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The longest `Retry-After` a vend endpoint honours, in seconds: a server (or proxy) that asks for hours
/// cannot silence a provider for longer than this.
let maximumVendBackoff: TimeInterval = 300

/// `POST /vend/<vendor>` for ``VendedTokenProvider`` and ``BloomreachCustomerTokenProvider``: sends the
/// parameters, reads either answer shape, and honours `Retry-After`.
///
/// After a 429 or 503 with `Retry-After: <seconds>`, fetches until then throw the same error without a request
/// (at most ``maximumVendBackoff`` seconds; an HTTP-date is not honoured). The providers serve a fresh cached
/// token meanwhile, since the cache is consulted before any fetch. ``clearBackoff()`` ends the wait early.
final class VendEndpoint<Session: AuthenticatedTransport>: Sendable {
    private struct Backoff {
        var until: Date
        var error: TokenClientError
    }

    let session: Session
    let vendor: String
    let margin: TimeInterval
    let clock: @Sendable () -> Date
    private let backoff = Locked<Backoff?>(nil)

    init(session: Session, vendor: String, margin: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.session = session
        self.vendor = vendor
        self.margin = margin
        self.clock = now
    }

    /// `POST /vend/<vendor>` with `parameters` as the JSON object body.
    /// - Throws: the error of a 429 or 503 still within its `Retry-After`; whatever the session throws;
    ///   ``TokenClientError/server(status:body:)`` for a non-2xx answer; ``TokenClientError/invalidResponse``.
    func fetch(_ parameters: [String: VendorParameterValue]) async throws -> VendedCredential {
        let now = clock()
        if let pending = backoff.withLock({ $0 }), now < pending.until { throw pending.error }
        // One path component: a name with `/` or `?` cannot reach another route; the server answers 404.
        let url = session.baseURL.appending(path: "vend").appending(component: vendor)
        let (data, response) = try await session.send(WireCoding.request("POST", url, body: parameters))
        if let seconds = Self.retryAfter(response) {
            let error = TokenClientError.server(status: response.statusCode, body: WireCoding.errorBody(data))
            backoff.withLock { $0 = Backoff(until: clock().addingTimeInterval(seconds), error: error) }
        }
        let answer = try WireCoding.decodeSuccess(VendAnswer.self, data: data, response: response)
        return try answer.credential(margin: margin, now: clock())
    }

    /// Lets the next fetch send a request even within a `Retry-After`.
    func clearBackoff() {
        backoff.withLock { $0 = nil }
    }

    /// The `Retry-After` delta-seconds of a 429 or 503, clamped to 1…``maximumVendBackoff``.
    private static func retryAfter(_ response: TransportResponse) -> TimeInterval? {
        guard response.statusCode == 429 || response.statusCode == 503,
            let seconds = WireCoding.retryAfterSeconds(response)
        else { return nil }
        return min(max(seconds, 1), maximumVendBackoff)
    }
}
