import AuthAPI
import FoundationEssentials
import TokenClientCore

/// The one stderr line and the exit status for an error of a client command.
///
/// The line names the server's error code and message when there is one; it never contains a token or a
/// password (the library's errors carry none, and the server promises the same of its messages).
struct FailureReport: Equatable {
    /// Exit status for failures (server refused, unreachable, session file unusable).
    static let failure: Int32 = 1
    /// Exit status for usage errors, as `tokenvend jwt verify` uses.
    static let usage: Int32 = 2
    /// Exit status after a cancelled prompt (as a shell reports Control-C).
    static let cancelled: Int32 = 130

    /// The line to print, without a trailing newline.
    let message: String
    /// The process exit status.
    let exitCode: Int32

    /// Describes `error`.
    init(_ error: any Error) {
        switch error {
        case let error as TokenClientError:
            self.init(message: Self.describe(error), exitCode: Self.failure)
        case ClientCommandError.usage(let text):
            self.init(message: Self.sanitized(text), exitCode: Self.usage)
        case ClientCommandError.sessionFile(let text):
            self.init(message: "session file: " + Self.sanitized(text), exitCode: Self.failure)
        case ClientCommandError.cancelled:
            self.init(message: "cancelled", exitCode: Self.cancelled)
        default:
            self.init(message: "unexpected error: \(type(of: error))", exitCode: Self.failure)
        }
    }

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    private static func describe(_ error: TokenClientError) -> String {
        switch error {
        case .signedOut:
            return "not logged in: run tokenvend login"
        case .server(let status, let body?):
            return "server refused (HTTP \(status)): \(sanitized(body.error.rawValue)): \(sanitized(body.message))"
        case .server(let status, nil):
            return "server refused (HTTP \(status)) without an error body"
        case .transport(let text):
            return "cannot reach the server: " + sanitized(text)
        case .invalidResponse:
            return "the server's answer could not be understood"
        case .storage(let text):
            return "session file: " + sanitized(text)
        case .storageLocked:
            return "session file: cannot be read now (locked); try again"
        case .integrity(let failure):
            return "app integrity: " + sanitized(String(describing: failure))
        case .dpop(let text):
            return "DPoP key: " + sanitized(text)
        }
    }

    /// `text` on one line without control characters (a hostile server could send terminal escapes), at most
    /// 300 characters.
    static func sanitized(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Character in
            scalar.properties.generalCategory == .control ? " " : Character(scalar)
        }
        let line = String(scalars)
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}
