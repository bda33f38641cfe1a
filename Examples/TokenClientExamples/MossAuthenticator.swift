import TokenClient

#if canImport(Moss)
    import Moss
#else
    /// The Moss Swift SDK's protocol, declared as its documentation shows it ("Custom Authenticator"). The SDK is not a
    /// dependency of this package, so the example compiles against the same shape.
    protocol Authenticator: AnyObject, Sendable {
        func getAuthHeader() async throws -> String
    }
#endif

// README: moss-authenticator
/// Moss's `Authenticator` over tokenvend's `GET /moss-token`, for
/// `MossClient(projectId:authenticator:)`: the project key stays on the server.
///
/// The token is cached until 60 s before it expires (the margin Moss uses), concurrent callers share one fetch, and
/// the cache is dropped when the user signs out or another user signs in.
final class TokenvendMossAuthenticator: Authenticator {
    private let tokens: MossTokenProvider<AuthSession>

    init(session: AuthSession) {
        tokens = MossTokenProvider(session: session)
    }

    /// The raw token, without `Bearer `: the SDK adds the prefix itself.
    func getAuthHeader() async throws -> String {
        try await tokens.getAuthHeader()
    }
}
// README-END
