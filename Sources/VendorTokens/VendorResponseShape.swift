/// How `POST /vend/<name>` answers with a vended token.
public enum VendorResponseShape: Sendable, Equatable {
    /// `200 {"token", "expiresIn", "expiresAt"}`.
    case token
    /// LiveKit's token-endpoint contract: `201 {"server_url", "participant_token"}`; `serverURL` is `wss://`,
    /// `ws://` or `https://`.
    case liveKit(serverURL: String)
}
