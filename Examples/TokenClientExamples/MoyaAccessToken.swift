import Foundation
import TokenClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Moya)
    import Alamofire
    import Moya
#else
    // Minimal stand-ins for the Moya and Alamofire (5.10) types the examples use, with the same shapes: neither is a
    // dependency of this package.

    /// Moya's description of an endpoint.
    protocol TargetType {}

    /// Moya's plugin that adds `Authorization: Bearer <token>`, asking `tokenClosure` synchronously for each request.
    struct AccessTokenPlugin {
        let tokenClosure: (any TargetType) -> String
        init(tokenClosure: @escaping (any TargetType) -> String) {
            self.tokenClosure = tokenClosure
        }
    }

    /// Alamofire's session, which Moya sends requests through (`MoyaProvider(session:plugins:)`).
    final class Session {}

    /// Alamofire's request: the `URLRequest` last sent, its response, and how often it was retried.
    class Request {
        var request: URLRequest?
        var response: HTTPURLResponse?
        var retryCount = 0
    }

    /// What Alamofire does with a failed request.
    enum RetryResult {
        case retry
        case retryWithDelay(TimeInterval)
        case doNotRetry
        case doNotRetryWithError(any Error)
    }

    /// Alamofire's `RequestAdapter & RequestRetrier`: adapts every request before it is sent, and decides about
    /// retrying a failed one (a retried request is adapted again).
    protocol RequestInterceptor: Sendable {
        func adapt(
            _ urlRequest: URLRequest, for session: Session,
            completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void)
        func retry(
            _ request: Request, for session: Session, dueTo error: any Error,
            completion: @escaping @Sendable (RetryResult) -> Void)
    }
#endif

// README: moya-access-token-plugin
/// Moya's `AccessTokenPlugin` wants the token synchronously: the session's snapshot has it, without waiting. It may
/// have expired by then (the plugin cannot refresh); `TokenvendInterceptor` below can.
func accessTokenPlugin(session: AuthSession) -> AccessTokenPlugin {
    AccessTokenPlugin { _ in session.snapshot.accessToken ?? "" }
}
// README-END

// README: moya-interceptor
/// An Alamofire `RequestInterceptor` for `MoyaProvider(session: Session(interceptor: …))`: each request gets the
/// bearer from `authorize(_:)` (refreshed first when about to expire; requests to other hosts get none), and a 401
/// `invalid_token` is retried once, after `handleRejection(of:response:)` renewed the token. Alamofire retries only
/// failed requests: give the targets `validationType = .successCodes`.
final class TokenvendInterceptor: RequestInterceptor {
    private let authSession: AuthSession

    init(session: AuthSession) {
        authSession = session
    }

    func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        Task { [authSession] in
            do {
                completion(.success(try await authSession.authorize(urlRequest)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    func retry(
        _ request: Request, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        guard request.retryCount == 0, let sent = request.request, let response = request.response else {
            return completion(.doNotRetry)
        }
        Task { [authSession] in
            do {
                // The retry goes through `adapt` again, which picks up the renewed token.
                let renewed = try await authSession.handleRejection(of: sent, response: response)
                completion(renewed == nil ? .doNotRetry : .retry)
            } catch {
                completion(.doNotRetryWithError(error))
            }
        }
    }
}
// README-END
