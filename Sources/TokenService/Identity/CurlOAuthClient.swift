public import IdentityProviders

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The browser flow's outgoing HTTP over libcurl (``CurlHTTPExchange``): discovery documents, the token endpoint
/// (form `POST`) and the user-info endpoint (`GET` with a bearer token).
///
/// https only (http only to a loopback host, for tests and local providers), never a redirect followed (a 3xx is
/// returned as it is), answers of every status returned with their body (token errors come as 400 JSON), at most
/// ``maximumBodyBytes``, bounded connect and total times. Every request says `Accept: application/json` (GitHub
/// answers its token endpoint form-encoded otherwise). A header value with a control character (CR, LF, NUL…) is
/// refused before anything is sent, so a provider's access token cannot inject header lines.
///
/// Safe to call from several tasks at once: each request has its own handle.
public struct CurlOAuthClient: OAuthHTTPClient {
    /// The largest body read: 64 KiB.
    public static let maximumBodyBytes = 65_536

    /// Seconds for connect, send and answer together. Default: 10.
    public var timeout: Double
    /// Seconds to open the connection (DNS, TCP, TLS). Default: 3.
    public var connectTimeout: Double

    /// A client with the given limits.
    public init(timeout: Double = 10, connectTimeout: Double = 3) {
        self.timeout = timeout
        self.connectTimeout = min(connectTimeout, timeout)
    }

    public func postForm(_ url: String, form: [(String, String)], headers: [(String, String)])
        async throws(OAuthHTTPError) -> OAuthHTTPResponse
    {
        var fields = ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json", "Expect:"]
        for (name, value) in headers {
            guard Self.isToken(name), Self.isFieldValue(value) else { throw .insecureURL }
            fields.append("\(name): \(value)")
        }
        return try await send(url, body: Data(FormEncoding.encode(form).utf8), fields: fields)
    }

    public func get(_ url: String, bearer: String?) async throws(OAuthHTTPError) -> OAuthHTTPResponse {
        var fields = ["Accept: application/json"]
        if let bearer {
            guard Self.isFieldValue(bearer) else { throw .insecureURL }
            fields.append("Authorization: Bearer \(bearer)")
        }
        return try await send(url, body: nil, fields: fields)
    }

    private func send(_ url: String, body: Data?, fields: [String]) async throws(OAuthHTTPError)
        -> OAuthHTTPResponse
    {
        guard let parsed = MossConfiguration.parseAuthURL(url), parsed.user == nil, parsed.password == nil else {
            throw .insecureURL
        }
        let started = ContinuousClock.now
        let (outcome, cacheControl) = await CurlHTTPExchange.send(
            parsed, body: body, fields: fields, timeout: timeout, connectTimeout: connectTimeout,
            limit: Self.maximumBodyBytes)
        switch outcome {
        case .success((let body, let status)):
            return OAuthHTTPResponse(status: status, body: Array(body), cacheControl: cacheControl)
        case .failure(.badUpstreamResponse):
            throw .tooLarge
        case .failure:
            let elapsed = ContinuousClock.now - started
            if elapsed >= .milliseconds(Int64(timeout * 1000) - 50) { throw .timedOut }
            throw .unreachable
        }
    }

    /// RFC 9110 §5.1 field name: one or more tchar.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                ASCIIAlphabet.isAlphanumeric(byte) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
    }

    /// RFC 9110 §5.5 field value: visible ASCII, space and tab (no CR, LF, NUL or other controls; no obs-text).
    static func isFieldValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }
}

/// ASCII letters and digits.
private enum ASCIIAlphabet {
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}
