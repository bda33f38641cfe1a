/// What a fast-path handler (`Router.Handler.syncOrAsync`) returns: the response at once, or the async work
/// that produces it.
///
/// ```swift
/// router.on(.get, "/token", .syncOrAsync { request, context in
///     if let cached = cache.current() { return .response(.json(bytes: cached)) }  // inline, no Task
///     return .async { try await .json(bytes: cache.fetch()) }                      // rare: a Task
/// })
/// ```
public enum HandlerResult: Sendable {
    /// The response, written at once on the connection's event loop.
    case response(HTTPResponse)
    /// Work run in a `Task`; its response is posted back to the connection in order, as for an async handler.
    case async(@Sendable () async throws -> HTTPResponse)
}
