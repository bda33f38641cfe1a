#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the `exp` claim of a compact JWS without verifying it (the client cannot: it has no key). Used
/// only to schedule refreshes.
enum JWTExpiry {
    private struct Claims: Decodable {
        var exp: Double
    }

    /// `exp` as a date, or `nil` when the token is not three dot-separated parts with a base64url JSON
    /// payload holding a numeric `exp`.
    static func expiration(of token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = base64URLDecode(parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: payload)
        else { return nil }
        return Date(timeIntervalSince1970: claims.exp)
    }

    /// Decodes unpadded base64url (RFC 4648 §5).
    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
