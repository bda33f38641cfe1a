public import Store

/// The `method` label: one of `HTTPMethod.known`, `-` for a request rejected before its method was read, or
/// `other`.
enum MethodLabel {
    /// The label values, by index.
    static let names = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY", "-", "other"]

    /// The index in `names` of a request's method (exact case: `get` is `other`).
    static func index(of method: String) -> UInt8 {
        switch method {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "PATCH": 4
        case "DELETE": 5
        case "OPTIONS": 6
        case "TRACE": 7
        case "QUERY": 8
        case "-": 9
        default: 10
        }
    }
}

/// The `status` label: the code for the statuses the server sends, else the class (`1xx` … `5xx`).
enum StatusLabel {
    /// The statuses that label a series by their code.
    static let labelledCodes: [Int] = [
        200, 201, 204, 400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 422, 429, 431, 500, 501, 502, 503, 504, 505,
    ]
    /// The label values, by index: the codes, then `1xx` … `5xx`.
    static let names: [String] = labelledCodes.map { String($0) } + (1...5).map { "\($0)xx" }
    /// The index of every code from 0 to 599.
    private static let indexByCode: [UInt8] = (0..<600).map { code in
        if let position = labelledCodes.firstIndex(of: code) { return UInt8(position) }
        return classIndex(code)
    }

    /// The index in `names` of a status code.
    static func index(of code: Int) -> UInt8 {
        code >= 0 && code < indexByCode.count ? indexByCode[code] : classIndex(code)
    }

    private static func classIndex(_ code: Int) -> UInt8 {
        UInt8(labelledCodes.count - 1 + min(max(code / 100, 1), 5))
    }
}

/// A closed set of values for a one-label counter (`result`, `kind`, `reason`).
public protocol MetricLabel: CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == String {}

/// `tokenvend_logins_total{result}`.
public enum LoginResult: String, MetricLabel {
    case succeeded, failed
    case rateLimited = "rate_limited"
    case overloaded
}

/// `tokenvend_tokens_issued_total{kind}`.
public enum IssuedTokenKind: String, MetricLabel {
    case access, refresh, moss, stream
    /// A token of a `vendors.<name>` template (`POST /vend/{vendor}`; the moss preset counts as `moss`).
    case vendor
}

/// `tokenvend_sessions_revoked_total{reason}`.
public enum RevocationReason: String, MetricLabel {
    case logout, reuse
    case userDisabled = "user_disabled"
    case revokedByUser = "revoked_by_user"
    case sessionCap = "session_cap"
    /// A browser sign-in's one-time code presented again: the session it issued is revoked.
    case codeReplayed = "code_replayed"
    /// The password was reset with an email code (every session) or changed (every session but the caller's).
    case passwordChanged = "password_changed"
}

/// `tokenvend_account_deletions_total{method}`: the audit record's methods.
extension AccountDeletionMethod: MetricLabel {}
