import HTTPServer

/// Reads the `Cookie` request header and writes the `Set-Cookie` fields of cookie mode (API.md
/// "POST /auth/login"): `__Host-access_token` (Path=/) and `__Secure-refresh_token` (Path=/auth), both
/// `HttpOnly; Secure; SameSite=Strict`, and a readable `__Host-csrf_token` that unsafe cookie-authenticated
/// requests must echo in `X-CSRF-Token`.
///
/// The prefixes (RFC 6265bis §4.1.3) are enforced by the browser, not by this server: a `__Host-` cookie is only
/// stored when it is `Secure`, has `Path=/` and no `Domain`, so a sibling subdomain (`evil.example.com` beside
/// `auth.example.com`) cannot plant an access or CSRF cookie of its own choosing for this host (cookie
/// tossing); a `__Secure-` cookie only when it is `Secure`, so a plain-HTTP page cannot set the refresh cookie.
/// The refresh cookie keeps `Path=/auth`, which `__Host-` forbids, so that it is sent to `/auth/…` only. Only
/// the prefixed names are read: a cookie without the prefix is ignored.
enum CookieJar {
    static let accessCookie = "__Host-access_token"
    static let refreshCookie = "__Secure-refresh_token"
    static let csrfCookie = "__Host-csrf_token"

    /// The value of cookie `name` in the request, if present (RFC 6265 §5.4 `cookie-string`).
    static func value(_ name: String, in headers: HTTPHeaders) -> String? {
        for header in headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingSpaces()
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name {
                    var value = trimmed[trimmed.index(after: equals)...]
                    if value.count >= 2, value.first == "\"", value.last == "\"" {
                        value = value.dropFirst().dropLast()
                    }
                    return String(value)
                }
            }
        }
        return nil
    }

    /// The three `Set-Cookie` fields of a signed-in cookie session.
    static func sessionCookies(
        accessToken: String, accessLifetime: Int, refreshToken: String, refreshLifetime: Int, csrfToken: String
    ) -> [String] {
        [
            "\(accessCookie)=\(accessToken); Path=/; Max-Age=\(accessLifetime); HttpOnly; Secure; SameSite=Strict",
            "\(refreshCookie)=\(refreshToken); Path=/auth; Max-Age=\(refreshLifetime); HttpOnly; Secure; SameSite=Strict",
            "\(csrfCookie)=\(csrfToken); Path=/; Max-Age=\(refreshLifetime); Secure; SameSite=Strict",
        ]
    }

    /// `Set-Cookie` fields that remove the session cookies (logout).
    static func clearingCookies() -> [String] {
        [
            "\(accessCookie)=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Strict",
            "\(refreshCookie)=; Path=/auth; Max-Age=0; HttpOnly; Secure; SameSite=Strict",
            "\(csrfCookie)=; Path=/; Max-Age=0; Secure; SameSite=Strict",
        ]
    }
}
