/// A source of Moss project tokens: the real HTTP exchange (``HTTPMossUpstream``) or a test fake.
///
/// ``MossTokenCache`` calls it at most once at a time, so an implementation need not coalesce calls itself.
public protocol MossUpstream: Sendable {
    /// Exchanges the project credentials for a fresh project token.
    ///
    /// - Returns: the token and its lifetime in seconds, as the upstream answered it.
    /// - Throws: ``MossError/upstreamUnavailable`` when the upstream cannot be reached in time,
    ///   ``MossError/upstreamRejected(status:)`` for 401/403, ``MossError/upstreamFailed(status:)`` for other
    ///   non-success statuses, ``MossError/badUpstreamResponse`` for an invalid body.
    func fetchProjectToken() async throws(MossError) -> MossProjectToken
}
