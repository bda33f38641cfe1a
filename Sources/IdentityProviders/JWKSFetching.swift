/// Fetches an identity provider's JWK Set. The HTTPS implementation lives in TokenService (libcurl); tests use a
/// fake. Implementations must be safe to call from several tasks at once.
public protocol JWKSFetching: Sendable {
    /// The document at `url`.
    ///
    /// - Throws: `JWKSFetchError` when the set could not be fetched.
    func fetch(_ url: String) async throws(JWKSFetchError) -> JWKSDocument
}

/// A fetched JWK Set: the response body and the `Cache-Control` max-age, if any.
public struct JWKSDocument: Sendable, Equatable {
    /// The response body (a JWK Set, parsed leniently by `JWTKeySet.verifying(jwks:)`).
    public var body: [UInt8]
    /// `Cache-Control: max-age` in seconds, unclamped; `nil` when absent. `ProviderKeyCache` clamps it.
    public var maxAge: Int?

    /// Creates a document.
    public init(body: [UInt8], maxAge: Int?) {
        self.body = body
        self.maxAge = maxAge
    }

    /// Creates a document from the body and the `Cache-Control` header value (`nil` when there is none).
    ///
    /// `max-age=N` gives N seconds (the first one when repeated; RFC 9111 §5.2.2.1); `no-store` and `no-cache`
    /// give 0, so the cache keeps the keys for its minimum (5 minutes: refetching on every sign-in would put the
    /// provider in every request's path); anything else gives `nil` (the cache's default of 1 hour).
    public init(body: [UInt8], cacheControl: String?) {
        self.init(body: body, maxAge: cacheControl.flatMap(Self.maxAge(cacheControl:)))
    }

    /// The max-age in seconds that a `Cache-Control` value states, as `init(body:cacheControl:)` reads it.
    public static func maxAge(cacheControl: String) -> Int? {
        var noCache = false
        for directive in cacheControl.split(separator: ",") {
            let trimmed = directive.trimmingSpaces().lowercased()
            if trimmed == "no-store" || trimmed == "no-cache" { noCache = true }
            guard trimmed.hasPrefix("max-age") else { continue }
            let value = trimmed.dropFirst("max-age".count).trimmingSpaces()
            guard value.hasPrefix("=") else { continue }
            var digits = value.dropFirst().trimmingSpaces()
            if digits.hasPrefix("\""), digits.hasSuffix("\""), digits.count >= 2 {
                digits = digits.dropFirst().dropLast()
            }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
            // RFC 9111 §1.2.2: a delta-seconds too large to represent is taken as 2^31.
            return Int(digits) ?? Int(Int32.max)
        }
        return noCache ? 0 : nil
    }
}

/// Why a JWK Set could not be fetched. The texts never hold response bodies.
public enum JWKSFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is refused (not https, or http to a host that is not loopback).
    case insecureURL
    /// The connection failed (DNS, TCP, TLS); the payload is a short transport message.
    case unreachable(String)
    /// The request took longer than the fetcher's limit.
    case timedOut
    /// The provider answered another status than 200.
    case status(Int)
    /// The body is larger than the fetcher's limit (64 KiB is what `JWTKeySet.verifying(jwks:)` reads).
    case tooLarge

    /// A short sentence for the log.
    public var description: String {
        switch self {
        case .insecureURL: "key URL refused (https only; http only to loopback)"
        case .unreachable(let reason): "provider unreachable: \(reason)"
        case .timedOut: "key fetch timed out"
        case .status(let status): "key URL answered HTTP \(status)"
        case .tooLarge: "key set too large"
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex..<endIndex]
        }
        return self[first...last]
    }
}
