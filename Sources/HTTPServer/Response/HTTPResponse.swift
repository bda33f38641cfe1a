import StrictJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A response a handler returns. The server adds `Content-Length`, `Date`, `X-Request-Id` and, when it closes
/// the connection, `Connection: close`; a handler must not set those.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields the handler sets (e.g. `Content-Type`, `Cache-Control`, `WWW-Authenticate`).
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response from bytes already encoded; sets `Content-Type: application/json`.
    public static func json(status: HTTPStatus = .ok, bytes: [UInt8], headers: HTTPHeaders = HTTPHeaders())
        -> HTTPResponse
    {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: headers, body: bytes)
    }

    /// A JSON response encoding `value` with `JSONEncoder`; sets `Content-Type: application/json`.
    /// - Throws: the encoder's error (the server turns it into a 500).
    public static func json(
        status: HTTPStatus = .ok, _ value: some Encodable, headers: HTTPHeaders = HTTPHeaders()
    ) throws -> HTTPResponse {
        .json(status: status, bytes: Array(try JSONEncoder().encode(value)), headers: headers)
    }

    /// An API.md error body, `{"error":"<code>","message":"<text>"}`, with `Content-Type: application/json`.
    public static func error(
        status: HTTPStatus, code: String, message: String, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(32 + code.utf8.count + message.utf8.count)
        body.append(contentsOf: #"{"error":"#.utf8)
        appendJSONString(code, to: &body)
        body.append(contentsOf: #","message":"#.utf8)
        appendJSONString(message, to: &body)
        body.append(UInt8(ascii: "}"))
        return .json(status: status, bytes: body, headers: headers)
    }

    /// The error response for anything a handler throws: `HTTPResponseError`s map themselves; the rest is 500.
    public static func error(for error: any Error) -> HTTPResponse {
        guard let error = error as? any HTTPResponseError else {
            return .error(status: .internalServerError, code: "internal_error", message: "Internal server error.")
        }
        return .error(status: error.status, code: error.errorCode, message: error.publicMessage, headers: error.headers)
    }

    /// Every control character as `\u00XX` (no short escapes), as this server has always written error bodies.
    static func appendJSONString(_ string: String, to bytes: inout [UInt8]) {
        JSONString.append(string, to: &bytes, escaping: [])
    }
}
