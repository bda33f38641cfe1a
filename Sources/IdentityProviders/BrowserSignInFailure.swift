/// Who signed in at a provider in the browser flow.
public struct ProviderIdentity: Sendable, Equatable {
    /// The provider's configuration name.
    public var provider: String
    /// The provider's stable user id (`sub`, or GitHub's numeric `id` as a string).
    public var subject: String
    /// The email address, only when the provider says it is verified.
    public var email: String?

    /// Creates an identity.
    public init(provider: String, subject: String, email: String?) {
        self.provider = provider
        self.subject = subject
        self.email = email
    }
}

/// Why the browser sign-in failed on the provider's side. Texts never hold codes, tokens, secrets or bodies.
public enum BrowserSignInFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider (discovery, keys, token or user-info endpoint) cannot be reached, timed out or answered 5xx;
    /// retry after the given seconds (at least 1).
    case providerUnavailable(retryAfter: Int)
    /// The token endpoint refused the exchange; the payload is its `error` code (RFC 6749 §5.2), reduced to
    /// `[a-z0-9_]`, at most 64 characters (else `"unknown_error"`).
    case providerRefused(String)
    /// The ID token was refused.
    case invalidIDToken(IDTokenRejection)
    /// An answer was not what the protocol says (not JSON, a member missing, no subject…); the payload is a fixed
    /// sentence of this module's.
    case invalidResponse(String)

    /// The fixed labels `reason` takes.
    public static let reasons = ["provider_unavailable", "provider_refused", "invalid_id_token", "invalid_response"]

    /// The metric label: one of `reasons`.
    public var reason: String {
        switch self {
        case .providerUnavailable: "provider_unavailable"
        case .providerRefused: "provider_refused"
        case .invalidIDToken: "invalid_id_token"
        case .invalidResponse: "invalid_response"
        }
    }

    /// A short sentence for the log.
    public var description: String {
        switch self {
        case .providerUnavailable(let seconds): "provider unavailable (retry after \(seconds) s)"
        case .providerRefused(let code): "provider refused the code: \(code)"
        case .invalidIDToken(let rejection): "ID token refused: \(rejection.label)"
        case .invalidResponse(let what): "invalid provider response: \(what)"
        }
    }

    /// `code` if it is 1–64 characters of `[a-z0-9_]`, else `"unknown_error"`.
    static func sanitizedCode(_ code: String) -> String {
        let allowed = code.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
        return allowed && (1...64).contains(code.utf8.count) ? code : "unknown_error"
    }
}
