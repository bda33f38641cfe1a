/// Failures the client commands detect themselves (the library's own are ``TokenClientError``s).
enum ClientCommandError: Error, Sendable, Equatable {
    /// The command line or its environment is wrong (exit 2); the text says what to change.
    case usage(String)
    /// The session file or its folder cannot be used; the text names the path and why.
    case sessionFile(String)
    /// The user cancelled the password prompt (Control-C or Control-D).
    case cancelled
}
