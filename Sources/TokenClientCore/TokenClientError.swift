public import AuthAPI

/// Everything `TokenClient` throws. Descriptions never contain tokens or passwords.
public enum TokenClientError: Error, Sendable, Equatable {
    /// No session: never signed in, signed out, or the refresh token was refused (`invalid_grant`).
    case signedOut
    /// The server answered with an error status; `body` is its `{"error", "message"}` when it sent one.
    case server(status: Int, body: ErrorBody?)
    /// No HTTP answer arrived (connection refused, timeout, cancelled…); the text describes why.
    case transport(String)
    /// The answer could not be understood (not HTTP, or a 2xx body that does not decode).
    case invalidResponse
    /// The token store could not load, save or clear; the text describes why.
    case storage(String)
    /// The token store cannot be read now (the Keychain before the first unlock after a restart): the session is
    /// ``SessionState/locked``, not signed out.
    case storageLocked
    /// The app could not prove its integrity to the server (``AppIntegrityProvider``): see ``AppIntegrityFailure``.
    case integrity(AppIntegrityFailure)
    /// The session's DPoP key could not be made, loaded or used to sign (``DPoPConfiguration``); the text says why.
    case dpop(String)

    /// `error` itself when a store threw a ``TokenClientError``, else ``storage(_:)`` describing it.
    static func storage(from error: any Error) -> TokenClientError {
        error as? TokenClientError ?? .storage(String(describing: error))
    }

    /// The API error code when this is a server error with a body.
    public var code: ErrorCode? {
        if case .server(_, let body) = self { return body?.error }
        return nil
    }
}
