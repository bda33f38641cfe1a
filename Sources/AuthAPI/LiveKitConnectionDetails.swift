/// Answer of `POST /vend/{vendor}` for a vendor with LiveKit's response shape (the `livekit` preset): 201
/// `{"server_url", "participant_token"}`, as LiveKit's own token-endpoint contract has it, so LiveKit's client
/// SDKs' token sources can call tokenvend directly.
public struct LiveKitConnectionDetails: Codable, Sendable, Equatable {
    /// The LiveKit server to connect to (`wss://…`).
    public var serverURL: String
    /// The participant's access token.
    public var participantToken: String

    /// Creates connection details.
    public init(serverURL: String, participantToken: String) {
        self.serverURL = serverURL
        self.participantToken = participantToken
    }

    enum CodingKeys: String, CodingKey {
        case serverURL = "server_url"
        case participantToken = "participant_token"
    }
}

extension LiveKitConnectionDetails: CustomStringConvertible {
    /// The server URL and the token's length; the token itself is redacted.
    public var description: String {
        "LiveKitConnectionDetails(serverURL: \(serverURL), participantToken: <\(participantToken.utf8.count) bytes>)"
    }
}
