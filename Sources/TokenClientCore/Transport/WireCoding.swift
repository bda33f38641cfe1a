import AuthAPI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON encoding and decoding of API bodies, and the mapping of statuses to ``TokenClientError``.
enum WireCoding {
    /// Builds a request with JSON headers and, when given, an encoded body.
    static func request(_ method: String, _ url: URL, body: (some Encodable)?) -> TransportRequest {
        var request = TransportRequest(method: method, url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body, let data = try? JSONEncoder().encode(body) {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.body = data
        }
        return request
    }

    /// Decodes a 2xx body as `T`; throws the server error for any other status.
    static func decodeSuccess<T: Decodable>(_ type: T.Type, data: Data, response: TransportResponse) throws -> T {
        try requireSuccess(data: data, response: response)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw TokenClientError.invalidResponse
        }
    }

    /// Throws ``TokenClientError/server(status:body:)`` unless the status is 2xx.
    static func requireSuccess(data: Data, response: TransportResponse) throws {
        guard (200..<300).contains(response.statusCode) else {
            throw TokenClientError.server(status: response.statusCode, body: errorBody(data))
        }
    }

    /// The `Retry-After` delta-seconds of `response` (RFC 9110 §10.2.3: a non-negative integer, surrounding spaces
    /// allowed), or `nil` when there is none or it is not that (an HTTP-date is not read). Callers bound it.
    static func retryAfterSeconds(_ response: TransportResponse) -> TimeInterval? {
        guard let text = response.value(forHTTPHeaderField: HeaderName.retryAfter),
            let seconds = Int(text.trimmingOptionalWhitespace()), seconds >= 0
        else { return nil }
        return TimeInterval(seconds)
    }

    /// The `{"error", "message"}` body, when `data` is one.
    static func errorBody(_ data: Data) -> ErrorBody? {
        try? JSONDecoder().decode(ErrorBody.self, from: data)
    }

    /// Sends without credentials, mapping failures to ``TokenClientError``; cancellation passes through.
    static func exchange(_ transport: any HTTPTransport, _ request: TransportRequest) async throws -> (
        Data, TransportResponse
    ) {
        do {
            return try await transport.send(request)
        } catch let error as TokenClientError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TokenClientError.transport(String(describing: error))
        }
    }
}
