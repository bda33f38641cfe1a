/// Values of the `X-Auth-Strategy` request header on token-issuing endpoints.
public enum AuthStrategy: String, Codable, Sendable, CaseIterable {
    /// Tokens in the JSON body (the default when the header is absent); for native apps.
    case bearer
    /// Tokens in `HttpOnly` cookies plus a readable CSRF cookie; for browsers.
    case cookie
}
