import Cryptography

/// The outgoing HTTP of the browser flow: the provider's discovery document, token endpoint and user-info endpoint.
/// The libcurl implementation (`CurlOAuthClient`) lives in TokenService; tests use `FakeOAuthHTTPClient`.
///
/// Every implementation must: speak https only (http only to a loopback host, for tests), never follow a
/// redirect (a 3xx is returned as it is), return non-2xx answers with their body (token errors come as 400 JSON),
/// refuse a body over `maximumBodyBytes`, and bound the whole exchange by a timeout. Safe to call from several
/// tasks at once.
public protocol OAuthHTTPClient: Sendable {
    /// `POST url` with `form` as `application/x-www-form-urlencoded` (in this order), `Accept: application/json`,
    /// and the extra `headers` (e.g. `Authorization: Basic …`).
    func postForm(_ url: String, form: [(String, String)], headers: [(String, String)]) async throws(OAuthHTTPError)
        -> OAuthHTTPResponse
    /// `GET url` with `Accept: application/json` and, when `bearer` is given, `Authorization: Bearer <bearer>`.
    func get(_ url: String, bearer: String?) async throws(OAuthHTTPError) -> OAuthHTTPResponse
}

extension OAuthHTTPClient {
    /// The largest body read: 64 KiB (discovery documents are 1–5 KiB, token answers about 2 KiB).
    public static var maximumBodyBytes: Int { 65_536 }
}

/// An answer of any status.
public struct OAuthHTTPResponse: Sendable, Equatable {
    /// The HTTP status (3xx included: redirects are not followed).
    public var status: Int
    /// The body as received (at most 64 KiB).
    public var body: [UInt8]
    /// The `Cache-Control` value, if any (several fields joined with commas).
    public var cacheControl: String?

    /// Creates a response.
    public init(status: Int, body: [UInt8], cacheControl: String? = nil) {
        self.status = status
        self.body = body
        self.cacheControl = cacheControl
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// Why no answer was received. The texts never hold request or response bodies, secrets or codes.
public enum OAuthHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is refused: not https, http to a host that is not loopback, or user info in it.
    case insecureURL
    /// No answer: DNS, TCP, TLS, a dropped connection, or an answer that is not HTTP.
    case unreachable
    /// No complete answer within the client's timeout.
    case timedOut
    /// The body is larger than the limit (64 KiB).
    case tooLarge

    /// A short sentence for the log.
    public var description: String {
        switch self {
        case .insecureURL: "provider URL refused (https only; http only to loopback)"
        case .unreachable: "provider unreachable"
        case .timedOut: "provider request timed out"
        case .tooLarge: "provider answer too large"
        }
    }
}

/// Form encoding (`application/x-www-form-urlencoded`) and RFC 3986 percent-encoding.
public enum FormEncoding {
    /// `value` with every byte outside the unreserved set `[A-Za-z0-9-._~]` percent-encoded as `%XX` (uppercase),
    /// UTF-8 first. RFC 3986 §2.3; also what RFC 6749 Appendix B needs (a space becomes `%20`, which every form
    /// decoder reads as a space, as it reads `+`).
    public static func percentEncode(_ value: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if PKCE.isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `value` form-encoded as RFC 6749 Appendix B asks (HTML 4.01 §17.13.4): a space becomes `+`, every other
    /// byte outside `[A-Za-z0-9-._~]` `%XX`. `" %\"&+£€"` gives `+%25%22%26%2B%C2%A3%E2%82%AC`.
    public static func formEscape(_ value: String) -> String {
        percentEncode(value).replacing("%20", with: "+")
    }

    /// `name=value&…` in the given order, each part form-escaped (``formEscape(_:)``).
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(formEscape($0.0))=\(formEscape($0.1))" }.joined(separator: "&")
    }

    /// The pairs of a form or query string, in order; `+` is a space and `%XX` a byte. Pairs without `=` have an
    /// empty value. `nil` when a `%` escape is malformed or the bytes are not UTF-8.
    public static func decode(_ text: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(pieces[0]), let value = unescape(pieces.count > 1 ? pieces[1] : "") else {
                return nil
            }
            pairs.append((name, value))
        }
        return pairs
    }

    private static func unescape(_ text: Substring) -> String? {
        percentDecode(text.utf8).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The bytes of one form-encoded name or value: `+` is a space and `%XX` (either case) a byte; nil when a `%`
    /// is not followed by two hex digits. The project's one percent-decoder; callers check the bytes further
    /// (UTF-8, control characters) as their input needs.
    public static func percentDecode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return bytes
    }
}
