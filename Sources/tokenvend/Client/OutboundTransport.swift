import OutboundHTTP
import TokenClientCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// TokenClient's transport for the client commands: each ``TransportRequest`` goes out through OutboundHTTP's
/// libcurl client, so the `tokenvend` executable links no FoundationNetworking (and through it no second libcurl,
/// GnuTLS, Kerberos or LDAP).
///
/// - The server is the one the operator named (`--url`), so plain `http` may go anywhere
///   (``OutboundURL/Rule/plainHTTPAnywhere``); the commands warn about it.
/// - The request's ``TransportRequest/timeoutInterval`` is the deadline of the whole exchange (the session's
///   refresh timeout for a refresh, 60 s otherwise); a connection must open within ``connectTimeout``.
/// - Redirects are followed only within the request's origin (scheme, host, port), at most 5: the bearer token,
///   the password and the refresh token never leave the server that was named. A redirect elsewhere fails the
///   exchange.
/// - Answers over ``maximumBodyBytes`` are refused while they are read.
/// - Errors are ``OutboundHTTPError``s (their descriptions are short and hold no URL or secret); cancellation
///   surfaces as `CancellationError`.
struct OutboundTransport: HTTPTransport {
    /// The largest answer body read, in bytes. Default: 1 MiB (token answers are a few hundred bytes).
    var maximumBodyBytes = 1 << 20
    /// The longest opening a connection may take (DNS, TCP, TLS), at most the request's deadline. Default: 10 s.
    var connectTimeout: Duration = .seconds(10)

    /// Sends `request` and returns the body and the head of the answer, of any status.
    /// - Throws: ``OutboundHTTPError`` when there is no answer (``OutboundHTTPError/refusedURL`` for a URL that is
    ///   not plain `http` or `https`); `CancellationError` when the calling task was cancelled.
    func send(_ request: TransportRequest) async throws -> (Data, TransportResponse) {
        let url = try OutboundURL(request.url.absoluteString, rule: .plainHTTPAnywhere)
        let client = OutboundHTTPClient(
            deadline: Self.deadline(seconds: request.timeoutInterval), connectTimeout: connectTimeout,
            maximumBodyBytes: maximumBodyBytes,
            redirects: .follow(maximum: 5, accepts: { $0.isSameOrigin(as: url) }))
        let outbound = OutboundHTTPRequest(
            method: OutboundHTTPMethod(request.method), url: url,
            headers: request.headerFields.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: request.body.map { Array($0) })
        let response: OutboundHTTPResponse
        do {
            response = try await client.send(outbound)
        } catch .cancelled {
            throw CancellationError()
        }
        return (Data(response.body), Self.head(of: response))
    }

    /// The deadline for `seconds` (a `TimeInterval`), at least a millisecond.
    static func deadline(seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0.001 else { return .milliseconds(1) }
        return .milliseconds(Int64(min(seconds, 86_400) * 1000))
    }

    /// `response`'s head as the client reads it: one field per name (the first spelling seen), repeated fields
    /// joined with `, ` (RFC 9110 §5.3).
    static func head(of response: OutboundHTTPResponse) -> TransportResponse {
        var fields: [String: String] = [:]
        var seen: Set<String> = []
        for field in response.headers where seen.insert(field.name.lowercased()).inserted {
            fields[field.name] = response.header(field.name)
        }
        return TransportResponse(statusCode: response.status, headerFields: fields, url: URL(string: response.url.text))
    }
}
