/// Proves to a tokenvend server that requests come from the genuine app: obtains the value sent as
/// `X-App-Integrity` (an integrity token from `/integrity/*`, or `debug:<secret>` in development).
///
/// ``AuthSession`` calls it lazily, one call at a time, when it has no usable value: before the first request to the
/// server, 60 s before the value expires, and once more when the server refuses the value it holds.
public protocol AppIntegrityProvider: Sendable {
    /// A fresh value for `X-App-Integrity`, obtained through `exchange` (`POST /integrity/challenge`, then
    /// `/integrity/apple/attest`, `/apple/assert` or `/android`).
    /// - Throws: ``AppIntegrityFailure`` (or anything else, which the session reports as
    ///   ``AppIntegrityFailure/provider(_:)``); cancellation passes through.
    func integrityToken(using exchange: IntegrityExchange) async throws -> IntegrityCredential
}
