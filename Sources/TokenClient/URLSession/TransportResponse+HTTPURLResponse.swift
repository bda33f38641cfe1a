#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension TransportResponse {
    /// `response` as the core's value; converting back hands `response` itself out again.
    public init(_ response: HTTPURLResponse) {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String else { continue }
            fields[name] = value as? String ?? String(describing: value)
        }
        self.init(statusCode: response.statusCode, headerFields: fields, url: response.url)
        origin = response
    }
}

extension HTTPURLResponse {
    /// `response` as an `HTTPURLResponse` answering `request`: the one it was converted from, when it was, else a
    /// new one with its status and header fields (and its URL, else the request's).
    /// - Throws: ``TokenClientError/invalidResponse`` when Foundation refuses the status.
    public static func from(_ response: TransportResponse, answering request: URLRequest?) throws(TokenClientError)
        -> HTTPURLResponse
    {
        if let original = response.origin as? HTTPURLResponse { return original }
        guard let url = response.url ?? request?.url,
            let made = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: response.headerFields)
        else { throw TokenClientError.invalidResponse }
        return made
    }
}
