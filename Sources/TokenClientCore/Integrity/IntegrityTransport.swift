public import AuthAPI

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The transport an ``AuthSession`` with an ``AppIntegrityProvider`` sends through: adds `X-App-Integrity` to every
/// request for the server (`baseURL`'s origin and path) except `/integrity/*`, and on a 401 `integrity_required` or
/// `integrity_invalid` with a `WWW-Authenticate: AppIntegrity` challenge renews the value once and sends again once.
/// That 401 never reaches the session's bearer logic: it is no expired access token.
struct IntegrityTransport: HTTPTransport {
    let base: any HTTPTransport
    let baseURL: URL
    let cache: IntegrityTokenCache

    init(base: any HTTPTransport, baseURL: URL, provider: any AppIntegrityProvider, now: @escaping @Sendable () -> Date)
    {
        self.base = base
        self.baseURL = baseURL
        cache = IntegrityTokenCache(
            provider: provider, exchange: IntegrityExchange(baseURL: baseURL, transport: base, now: now), now: now)
    }

    /// Sends `request`, with the integrity value when it goes to the server.
    /// - Throws: ``TokenClientError/integrity(_:)`` when no value could be obtained, or when the server still
    ///   refused the request for integrity after one renewal (``AppIntegrityFailure/rejected(_:)``); what the base
    ///   transport throws.
    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        guard needsIntegrity(request.url) else { return try await base.send(request) }
        let first = try await cache.credential()
        let (data, response) = try await base.send(Self.attaching(first, to: request))
        guard Self.isIntegrityRejection(response, data) else { return (data, response) }
        guard request.isReplayable else {
            _ = try? await cache.renewed(replacing: first.value)
            throw TokenClientError.integrity(.rejected(WireCoding.errorBody(data)))
        }
        let renewed = try await cache.renewed(replacing: first.value)
        let retry = try await base.send(Self.attaching(renewed, to: request))
        guard !Self.isIntegrityRejection(retry.1, retry.0) else {
            throw TokenClientError.integrity(.rejected(WireCoding.errorBody(retry.0)))
        }
        return retry
    }

    /// True for a request to the server's origin under `baseURL`'s path, but not under `integrity/`.
    func needsIntegrity(_ url: URL) -> Bool {
        guard url.scheme?.lowercased() == baseURL.scheme?.lowercased(),
            url.host?.lowercased() == baseURL.host?.lowercased(), url.port == baseURL.port
        else { return false }
        let root = baseURL.path.hasSuffix("/") ? baseURL.path : baseURL.path + "/"
        let path = url.path
        guard path.hasPrefix(root) || path + "/" == root else { return false }
        return !path.dropFirst(root.count).hasPrefix("integrity/")
    }

    /// True for the server's integrity refusal: 401 `integrity_required` / `integrity_invalid` with an
    /// `AppIntegrity` challenge (`data` `nil`: the challenge alone, which the server sends only with those two).
    static func isIntegrityRejection(_ response: TransportResponse, _ data: Data?) -> Bool {
        guard response.statusCode == 401,
            BearerChallenge.hasScheme("AppIntegrity", response.value(forHTTPHeaderField: HeaderName.wwwAuthenticate))
        else { return false }
        guard let data else { return true }
        let code = WireCoding.errorBody(data)?.error
        return code == .integrityRequired || code == .integrityInvalid
    }

    private static func attaching(_ credential: IntegrityCredential, to request: TransportRequest) -> TransportRequest {
        var request = request
        request.setValue(credential.value, forHTTPHeaderField: HeaderName.appIntegrity)
        return request
    }
}
