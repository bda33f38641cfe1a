/// Every error the HTTPServer module throws: request-parsing failures (each mapped to the status the server
/// answers with) and socket failures at start.
public enum HTTPServerError: Error, Sendable, Equatable {
    /// The request breaks HTTP/1.1 framing or syntax (RFC 9112); answered with 400 and the connection closed.
    /// The payload names the rule that was broken, for logs and tests; it never contains request bytes.
    case malformed(String)
    /// The header section (or trailer section) exceeds `maxHeaderBytes`; answered with 431.
    case headerTooLarge
    /// The request target exceeds `maxTargetBytes`; answered with 414.
    case uriTooLong
    /// The declared or received body exceeds `maxBodyBytes`; answered with 413 before the body is read.
    case payloadTooLarge
    /// A transfer coding other than `chunked`; answered with 501.
    case unsupportedTransferCoding
    /// A method outside `HTTPMethod.known` (an unknown or lower-case token, or `CONNECT`); answered with
    /// 501 before routing (RFC 9110 §9.1) and the connection closed.
    case unsupportedMethod
    /// The request head or body did not arrive in time; answered with 408 and the connection closed.
    case requestTimeout
    /// An HTTP major version other than 1 (including the HTTP/2 preface); answered with 505.
    case unsupportedVersion
    /// A socket call failed while starting the server; `errno` is the value read right after the call.
    case socket(operation: String, errno: Int32)
    /// `start()` was called twice.
    case alreadyStarted

    /// The status the server answers a parse error with (500 for the non-parse cases).
    public var status: HTTPStatus {
        switch self {
        case .malformed: .badRequest
        case .headerTooLarge: .requestHeaderFieldsTooLarge
        case .uriTooLong: .uriTooLong
        case .payloadTooLarge: .contentTooLarge
        case .unsupportedTransferCoding, .unsupportedMethod: .notImplemented
        case .unsupportedVersion: .httpVersionNotSupported
        case .requestTimeout: .requestTimeout
        case .socket, .alreadyStarted: .internalServerError
        }
    }

    /// The API.md error code for the status above.
    public var errorCode: String {
        switch self {
        case .malformed: "invalid_request"
        case .headerTooLarge: "header_too_large"
        case .uriTooLong: "uri_too_long"
        case .payloadTooLarge: "payload_too_large"
        case .unsupportedTransferCoding, .unsupportedMethod: "not_implemented"
        case .unsupportedVersion: "http_version_not_supported"
        case .requestTimeout: "request_timeout"
        case .socket, .alreadyStarted: "internal_error"
        }
    }

    /// A short public message for the error body.
    public var publicMessage: String {
        switch self {
        case .malformed: "The request is not valid HTTP/1.1."
        case .headerTooLarge: "The request header section is too large."
        case .uriTooLong: "The request target is too long."
        case .payloadTooLarge: "The request body is too large."
        case .unsupportedTransferCoding: "The transfer coding is not supported."
        case .unsupportedMethod: "The request method is not implemented."
        case .unsupportedVersion: "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .requestTimeout: "The request did not arrive in time."
        case .socket, .alreadyStarted: "Internal server error."
        }
    }
}
