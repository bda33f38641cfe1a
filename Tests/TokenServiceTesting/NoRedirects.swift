public import Foundation
import Testing

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A URLSession that never follows a redirect: each hop is an answer under test.
public final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    public static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }()

    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Sends one request; the answer with its headers lowercased.
    public static func send(
        _ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> TestResponse {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body.utf8) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return TestResponse(status: http.statusCode, headers: fields, body: data)
    }
}
