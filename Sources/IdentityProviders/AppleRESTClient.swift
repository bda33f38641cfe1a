public import OutboundHTTP
import StrictJSON

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Sign in with Apple's REST API over the project's outbound client: redeems an app's authorization code for
/// Apple's refresh token (`POST tokenURL`, `grant_type=authorization_code`) and revokes a refresh token (`POST
/// revokeURL`, `token_type_hint=refresh_token`), both form bodies with `client_id` and the ES256
/// ``AppleClientSecret``.
///
/// Every call is bounded by the client's deadline (default 10 s, connect 3 s) and a 64 KiB answer; no redirect is
/// followed. Outcomes are typed (``AppleRESTFailure``): timeouts, connection failures and 5xx are worth a retry,
/// other 4xx are refusals. Safe to call from several tasks at once.
///
/// ```swift
/// let apple = AppleRESTClient(configuration: rest)
/// switch await apple.redeem(code: code) {
/// case .success(let refreshToken): …
/// case .failure(let failure): … failure.isRetryable …
/// }
/// ```
public struct AppleRESTClient: Sendable {
    /// The largest answer read: 64 KiB.
    public static let maximumBodyBytes = 65_536

    /// The endpoints and identifiers.
    public let configuration: AppleRESTConfiguration
    /// The client secret (cached, shared by every call of this client).
    public let secret: AppleClientSecret
    /// The outbound client, holding the deadline and the limits.
    public let http: OutboundHTTPClient

    /// A client for `configuration`.
    /// - Parameters:
    ///   - deadline: connect, send and answer together. Default: 10 s.
    ///   - now: the clock of the client secret.
    public init(
        configuration: AppleRESTConfiguration, deadline: Duration = .seconds(10),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        secret = AppleClientSecret(configuration: configuration, now: now)
        http = OutboundHTTPClient(
            deadline: deadline, connectTimeout: min(.seconds(3), deadline), maximumBodyBytes: Self.maximumBodyBytes)
    }

    /// Redeems the app's one-time authorization code.
    /// - Returns: Apple's refresh token, or why not.
    public func redeem(code: String) async -> Result<String, AppleRESTFailure> {
        let answer: OutboundHTTPResponse
        switch await post(
            configuration.tokenURL, form: [("grant_type", "authorization_code"), ("code", code)])
        {
        case .success(let response): answer = response
        case .failure(let failure): return .failure(failure)
        }
        guard case .object(let object)? = try? JSONValue.parse(answer.body) else {
            return .failure(.malformedAnswer)
        }
        guard case .string(let refreshToken)? = object["refresh_token"], !refreshToken.isEmpty else {
            return .failure(.missingRefreshToken)
        }
        return .success(refreshToken)
    }

    /// Revokes a refresh token (Apple answers 200 with an empty body, also for a token revoked already).
    /// - Returns: success, or why not (``AppleRESTFailure/isRetryable`` says whether to try again).
    public func revoke(refreshToken: String) async -> Result<Void, AppleRESTFailure> {
        switch await post(
            configuration.revokeURL, form: [("token", refreshToken), ("token_type_hint", "refresh_token")])
        {
        case .success: .success(())
        case .failure(let failure): .failure(failure)
        }
    }

    /// One form `POST` with the client credentials: the 2xx answer, or the failure its status or error means.
    private func post(_ url: String, form: [(String, String)]) async -> Result<OutboundHTTPResponse, AppleRESTFailure> {
        let clientSecret: String
        do {
            clientSecret = try secret.current()
        } catch {
            return .failure(.clientSecret)
        }
        guard let target = try? OutboundURL(url) else { return .failure(.unreachable("URL refused")) }
        let body = FormEncoding.encode([("client_id", configuration.clientId), ("client_secret", clientSecret)] + form)
        let request = OutboundHTTPRequest(
            method: .post, url: target,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
            body: Array(body.utf8))
        let response: OutboundHTTPResponse
        do throws(OutboundHTTPError) {
            response = try await http.send(request)
        } catch .timedOut {
            return .failure(.timedOut)
        } catch .tooLarge {
            return .failure(.tooLarge)
        } catch {
            return .failure(.unreachable(error.description))
        }
        if response.isSuccess { return .success(response) }
        if response.status >= 500 || response.status == 429 { return .failure(.serverError(status: response.status)) }
        return .failure(.refused(status: response.status, error: Self.errorCode(response.body)))
    }

    /// Apple's `error` member when it is a short word of `[a-z_]` (never echoes anything else).
    static func errorCode(_ body: [UInt8]) -> String? {
        guard case .object(let object)? = try? JSONValue.parse(body), case .string(let code)? = object["error"],
            (1...64).contains(code.utf8.count),
            code.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") })
        else { return nil }
        return code
    }
}
