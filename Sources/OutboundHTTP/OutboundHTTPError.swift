/// Why an outbound exchange has no answer, decided from libcurl's result code (never from elapsed time).
///
/// A response of any status is not an error: ``OutboundHTTPResponse/status`` is for the caller to check. The texts
/// never hold request or response bodies, header values or URLs (which may carry secrets).
public enum OutboundHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not one ``OutboundURL`` accepts (malformed, user info, or `http` to a host that is not
    /// loopback under ``OutboundURL/Rule/secure``).
    case refusedURL
    /// A request header name is not an RFC 9110 token, or a value holds a control character (CR, LF, NUL…).
    case invalidHeader
    /// A redirect was to be followed to a URL the rule or the caller's policy refuses, or had no usable `Location`.
    case redirectRefused
    /// More redirects than the policy's maximum.
    case tooManyRedirects
    /// No complete answer within the deadline, or no connection within the connect timeout.
    case timedOut
    /// The host refused the connection (nothing listens on the port).
    case connectionRefused
    /// The host could not be reached: the name did not resolve, no route, or the connection could not be made.
    case unreachable
    /// The connection broke before the answer was complete (reset, closed early, nothing received).
    case connectionLost
    /// The TLS handshake failed or the server's certificate was not accepted.
    case tls
    /// The answer's body (or head) is larger than the limit; the transfer was stopped as soon as that was known.
    case tooLarge
    /// The answer is not HTTP (or not HTTP libcurl reads).
    case malformedResponse
    /// The calling task was cancelled.
    case cancelled
    /// libcurl could not set up the transfer (out of memory, an option refused).
    case setupFailed

    /// A short sentence for the log.
    public var description: String {
        switch self {
        case .refusedURL: "URL refused (https only; http only to a loopback host; no user info)"
        case .invalidHeader: "request header refused (not a token, or a control character in the value)"
        case .redirectRefused: "redirect refused"
        case .tooManyRedirects: "too many redirects"
        case .timedOut: "timed out"
        case .connectionRefused: "connection refused"
        case .unreachable: "host unreachable"
        case .connectionLost: "connection lost before the answer was complete"
        case .tls: "TLS handshake or certificate check failed"
        case .tooLarge: "answer larger than the limit"
        case .malformedResponse: "answer is not HTTP"
        case .cancelled: "cancelled"
        case .setupFailed: "transfer could not be set up"
        }
    }
}
