/// An error a handler throws to answer with an API.md error body, `{"error": code, "message": publicMessage}`.
///
/// Any other error becomes a 500 `internal_error`, logged at `error` with the request id.
public protocol HTTPResponseError: Error {
    /// The response status.
    var status: HTTPStatus { get }
    /// The machine-readable code (`invalid_credentials`, `rate_limited`, ...).
    var errorCode: String { get }
    /// The human-readable message; must not contain secrets.
    var publicMessage: String { get }
    /// Extra header fields, e.g. `WWW-Authenticate`, `Retry-After`, `Allow`. Default: none.
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    /// No extra header fields.
    public var headers: HTTPHeaders { HTTPHeaders() }
}

extension HTTPServerError: HTTPResponseError {}
